import { describe, expect, it } from 'vitest'
import { runPaymentSweeps } from '#server/modules/payments/sweeps.ts'
import {
  expectLedgerConsistent,
  headersOf,
  paidCourse,
  useCommerceApp,
  type ApiBody,
} from '#server/modules/payments/testing.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'

interface Refund {
  refund_no: string
  state: string
  amount_fen: number
}

interface OrderDetail {
  state: string
  refunded_fen: number
}

/**
 * Alipay answers a refund with code 10000 whether or not money moved; only fund_change=Y says this call refunded.
 * Without it the refund counts only once alipay.trade.fastpay.refund.query says REFUND_SUCCESS.
 */
describe('Alipay refunds answered without fund_change=Y', () => {
  const { t, clock } = useCommerceApp()
  const sims = () => t().app.paymentSimulators!

  const call = async <T>(method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) => {
    const res = await t().app.inject({ method, url, headers: headersOf(token), payload })
    return res.json<ApiBody<T>>()
  }

  async function approve(mode: 'done' | 'pending') {
    const admin = await makeMember(t().database.db, 'admin')
    const paid = await paidCourse(t, { payMethod: 'alipay_wap', priceFen: 6600 })
    const asked = (
      await call<Refund>('POST', '/api/refunds', paid.m.token, { order_no: paid.orderNo, reason: '不想学了' })
    ).data
    sims().alipay.faults.refundWithoutFundChange = mode
    try {
      const approved = (await call<Refund>('POST', `/api/admin/refunds/${asked.refund_no}/approve`, admin.token, {}))
        .data
      return { ...paid, refundNo: asked.refund_no, approved }
    } finally {
      sims().alipay.faults.refundWithoutFundChange = null
    }
  }

  const order = async (token: string, orderNo: string) =>
    (await call<OrderDetail>('GET', `/api/orders/${orderNo}`, token)).data

  it('counts a refund the refund query confirms (REFUND_SUCCESS)', async () => {
    const r = await approve('done')
    expect(r.approved).toMatchObject({ state: 'succeeded', amount_fen: 6600 })
    expect(await order(r.m.token, r.orderNo)).toMatchObject({ state: 'refunded', refunded_fen: 6600 })
    expect(sims().alipay.trades.get(r.orderNo)!.refunded).toBe(6600)
    await expectLedgerConsistent(t().database.db)
  })

  it('does not count a refund the query does not confirm; the sweep asks again and counts it once it is done', async () => {
    const r = await approve('pending')
    expect(r.approved.state).toBe('processing')
    expect(await order(r.m.token, r.orderNo)).toMatchObject({ state: 'refunding', refunded_fen: 0 })
    // A minute later Alipay still has not refunded: the sweep asks, sends the same out_request_no again (no money
    // moves twice) and the refund stays processing.
    clock.advance(61_000)
    try {
      await runPaymentSweeps(t().app.services)
      expect(await order(r.m.token, r.orderNo)).toMatchObject({ state: 'refunding', refunded_fen: 0 })
      expect(sims().alipay.trades.get(r.orderNo)!.refunds.get(r.refundNo)).toMatchObject({ done: false })
      sims().alipay.settleRefund(r.orderNo, r.refundNo)
      clock.advance(61_000)
      await runPaymentSweeps(t().app.services)
    } finally {
      clock.reset()
    }
    expect(await order(r.m.token, r.orderNo)).toMatchObject({ state: 'refunded', refunded_fen: 6600 })
    expect(sims().alipay.trades.get(r.orderNo)!.refunded).toBe(6600)
    await expectLedgerConsistent(t().database.db)
  })
})
