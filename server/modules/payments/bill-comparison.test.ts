import { describe, expect, it } from 'vitest'
import type { ProviderBill } from '#server/integrations/payments/payments.ts'
import { compareBill, missingTheirs, type OurPayment, type OurRefund, type OurSide } from './bill-comparison.ts'

const at = new Date('2026-11-20T12:00:00+08:00')
const pay = (orderNo: string, transactionId: string, amountFen: number) => ({ orderNo, transactionId, amountFen, at })
const order = (orderNo: string, state: string, amountFen: number, transactionId: string | null): OurPayment => ({
  orderNo,
  state,
  amountFen,
  provider: 'wechat',
  transactionId,
})
const refund = (refundNo: string, state: string, amountFen: number): OurRefund => ({
  refundNo,
  orderNo: 'ZX1',
  state,
  amountFen,
})
const bill = (b: Partial<ProviderBill>): ProviderBill => ({ date: '2026-11-20', payments: [], refunds: [], ...b })
const side = (s: Partial<OurSide>): OurSide => ({
  orders: new Map(),
  secondPayments: new Map(),
  refunds: new Map(),
  paidThatDay: [],
  refundedThatDay: [],
  ...s,
})

describe('compareBill', () => {
  it('finds nothing when both sides agree, a refunded order included', () => {
    const o = order('ZX1', 'refunded', 100, 'T1')
    const r = refund('RF1', 'succeeded', 100)
    const { found, unbilled } = compareBill(
      'wechat',
      bill({
        payments: [pay('ZX1', 'T1', 100)],
        refunds: [{ orderNo: 'ZX1', refundNo: 'RF1', amountFen: 100, succeeded: true, at }],
      }),
      side({ orders: new Map([['ZX1', o]]), refunds: new Map([['RF1', r]]), paidThatDay: [o], refundedThatDay: [r] }),
    )
    expect(found).toEqual([])
    expect(unbilled).toEqual([])
  })

  it.each([
    ['an order we closed that the provider says is paid', order('ZX1', 'closed', 100, null), 'state_differs'],
    ['an order still pending', order('ZX1', 'pending', 100, null), 'state_differs'],
    ['an order paid by another transaction, this one unknown to us', order('ZX1', 'paid', 100, 'T0'), 'missing_ours'],
    ['an order of another amount', order('ZX1', 'paid', 90, 'T1'), 'amount_differs'],
  ])('reports %s', (_what, o, kind) => {
    const { found } = compareBill(
      'wechat',
      bill({ payments: [pay('ZX1', 'T1', 100)] }),
      side({ orders: new Map([['ZX1', o]]) }),
    )
    expect(found).toEqual([expect.objectContaining({ kind, orderNo: 'ZX1', theirFen: 100 })])
  })

  it('knows a second payment by its automatic refund', () => {
    const o = order('ZX1', 'paid', 100, 'T0')
    const ok = compareBill(
      'wechat',
      bill({ payments: [pay('ZX1', 'T1', 100)] }),
      side({
        orders: new Map([['ZX1', o]]),
        secondPayments: new Map([['T1', 100]]),
      }),
    )
    expect(ok.found).toEqual([])
  })

  it('reports refunds unknown, of another amount, or in another state', () => {
    const row = (refundNo: string, amountFen: number, succeeded = true) => ({
      orderNo: 'ZX1',
      refundNo,
      amountFen,
      succeeded,
      at,
    })
    const { found } = compareBill(
      'wechat',
      bill({ refunds: [row('RF1', 100), row('RF2', 100), row('RF3', 100), row('RF4', 100, false)] }),
      side({
        refunds: new Map([
          ['RF2', refund('RF2', 'succeeded', 50)],
          ['RF3', refund('RF3', 'processing', 100)],
          ['RF4', refund('RF4', 'succeeded', 100)],
        ]),
      }),
    )
    expect(found.map((d) => [d.refundNo, d.kind, d.theirState])).toEqual([
      ['RF1', 'missing_ours', 'succeeded'],
      ['RF2', 'amount_differs', undefined],
      ['RF3', 'state_differs', 'succeeded'],
      ['RF4', 'state_differs', 'processing'],
    ])
  })
})

describe('missingTheirs', () => {
  it('leaves out what the bill of the day before lists (made just before midnight, learnt of just after)', () => {
    const late = order('ZX1', 'paid', 100, 'T1')
    const lost = order('ZX2', 'paid', 200, 'T2')
    const r = refund('RF9', 'succeeded', 100)
    const { unbilled } = compareBill('wechat', bill({}), side({ paidThatDay: [late, lost], refundedThatDay: [r] }))
    expect(unbilled).toHaveLength(3)
    const missing = missingTheirs(unbilled, bill({ payments: [pay('ZX1', 'T1', 100)] }))
    expect(missing.map((d) => [d.kind, d.subject, d.orderNo, d.refundNo ?? null])).toEqual([
      ['missing_theirs', 'payment', 'ZX2', null],
      ['missing_theirs', 'refund', 'ZX1', 'RF9'],
    ])
  })
})
