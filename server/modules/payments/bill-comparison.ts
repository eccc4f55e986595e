import type { ProviderName as PaymentProviderName } from '#server/integrations/payments/payments.ts'
import type { ProviderBill } from '#server/integrations/payments/payments.ts'
import type { NewDifference } from './reconciliation.repository.ts'

// A provider's trade bill of one day against our payments and refunds: what differs, for staff. Pure: the
// reconciliation use case (server/use-cases/reconcile-bills.ts) reads both sides and stores the result.

/** A payment as we recorded it (an order, or a second payment known by its automatic refund). */
export interface OurPayment {
  orderNo: string
  /** The order's state (pending, paid, refunded…). */
  state: string
  amountFen: number
  provider: PaymentProviderName | null
  transactionId: string | null
}

/** A refund as we recorded it. */
export interface OurRefund {
  refundNo: string
  orderNo: string
  state: string
  amountFen: number
}

/** Our side of a day, as the use case read it. */
export interface OurSide {
  /** The orders the bill names, by order number (any day, any state). */
  orders: Map<string, OurPayment>
  /** Second payments we know of (refunded automatically), by transaction id: what was paid. */
  secondPayments: Map<string, number>
  /** The refunds the bill names, by refund number. */
  refunds: Map<string, OurRefund>
  /** What we recorded for the day: orders paid, refunds succeeded. */
  paidThatDay: OurPayment[]
  refundedThatDay: OurRefund[]
}

/** Order states in which the order's money was taken (and maybe given back since). */
const TAKEN = new Set(['paid', 'refunding', 'partially_refunded', 'refunded'])

type Difference = Omit<NewDifference, 'provider' | 'billDate' | 'createdAt'>

/** Ours, not in the day's bill: checked against the bill of the day before before it counts as missing there. */
export type Unbilled = { subject: 'payment'; row: OurPayment } | { subject: 'refund'; row: OurRefund }

/** What the bill says that we do not, and what we recorded that the bill does not list (`unbilled`). */
export function compareBill(provider: PaymentProviderName, bill: ProviderBill, ours: OurSide) {
  const found: Difference[] = []
  for (const p of bill.payments) {
    const order = ours.orders.get(p.orderNo)
    const base = {
      subject: 'payment' as const,
      orderNo: p.orderNo,
      transactionId: p.transactionId,
      theirFen: p.amountFen,
    }
    if (!order) {
      found.push({ ...base, kind: 'missing_ours', theirState: 'paid', detail: '支付平台有这笔支付，我们没有这个订单' })
    } else if (order.provider === provider && order.transactionId === p.transactionId) {
      if (order.amountFen !== p.amountFen)
        found.push({ ...base, kind: 'amount_differs', ourFen: order.amountFen, detail: '支付金额与订单金额不一致' })
      else if (!TAKEN.has(order.state))
        found.push({
          ...base,
          kind: 'state_differs',
          ourState: order.state,
          theirState: 'paid',
          detail: '支付平台已收款，订单未付',
        })
    } else if (ours.secondPayments.has(p.transactionId)) {
      const paid = ours.secondPayments.get(p.transactionId)!
      if (paid !== p.amountFen)
        found.push({ ...base, kind: 'amount_differs', ourFen: paid, detail: '重复支付的金额与我们记录的不一致' })
    } else if (!TAKEN.has(order.state)) {
      found.push({
        ...base,
        kind: 'state_differs',
        ourFen: order.amountFen,
        ourState: order.state,
        theirState: 'paid',
        detail: '支付平台已收款，订单仍是未付或已关闭',
      })
    } else {
      found.push({
        ...base,
        kind: 'missing_ours',
        ourFen: order.amountFen,
        ourState: order.state,
        theirState: 'paid',
        detail: '订单已由另一笔支付付清，这笔支付我们没有记录',
      })
    }
  }
  for (const r of bill.refunds) {
    const refund = ours.refunds.get(r.refundNo)
    const base = { subject: 'refund' as const, orderNo: r.orderNo, refundNo: r.refundNo, theirFen: r.amountFen }
    const theirState = r.succeeded ? 'succeeded' : 'processing'
    if (!refund) found.push({ ...base, kind: 'missing_ours', theirState, detail: '支付平台有这笔退款，我们没有记录' })
    else if (refund.amountFen !== r.amountFen)
      found.push({ ...base, kind: 'amount_differs', ourFen: refund.amountFen, detail: '退款金额不一致' })
    else if (r.succeeded !== (refund.state === 'succeeded'))
      found.push({
        ...base,
        kind: 'state_differs',
        ourFen: refund.amountFen,
        ourState: refund.state,
        theirState,
        detail: r.succeeded ? '支付平台已退款，我们的退款未完成' : '我们记为已退款，支付平台仍在处理',
      })
  }
  const billed = new Set(bill.payments.map((p) => `${p.orderNo}|${p.transactionId}`))
  const billedRefunds = new Set(bill.refunds.filter((r) => r.succeeded).map((r) => r.refundNo))
  const unbilled: Unbilled[] = [
    ...ours.paidThatDay
      .filter((o) => !billed.has(`${o.orderNo}|${o.transactionId}`))
      .map((row) => ({ subject: 'payment' as const, row })),
    ...ours.refundedThatDay
      .filter((r) => !billedRefunds.has(r.refundNo))
      .map((row) => ({ subject: 'refund' as const, row })),
  ]
  return { found, unbilled }
}

/**
 * What we recorded that the day's bill does not list, less what the bill of the day before lists: our time of a
 * payment or refund is when we learnt of it, a little after the provider's, so one made just before midnight is
 * in the earlier bill.
 */
export function missingTheirs(unbilled: Unbilled[], dayBefore: ProviderBill): Difference[] {
  const payments = new Set(dayBefore.payments.map((p) => `${p.orderNo}|${p.transactionId}`))
  const refunds = new Set(dayBefore.refunds.filter((r) => r.succeeded).map((r) => r.refundNo))
  return unbilled.flatMap((u): Difference[] => {
    if (u.subject === 'payment') {
      if (payments.has(`${u.row.orderNo}|${u.row.transactionId}`)) return []
      return [
        {
          subject: 'payment',
          kind: 'missing_theirs',
          orderNo: u.row.orderNo,
          transactionId: u.row.transactionId,
          ourFen: u.row.amountFen,
          ourState: u.row.state,
          detail: '我们记为已付款，支付平台账单里没有这笔支付',
        },
      ]
    }
    if (refunds.has(u.row.refundNo)) return []
    return [
      {
        subject: 'refund',
        kind: 'missing_theirs',
        orderNo: u.row.orderNo,
        refundNo: u.row.refundNo,
        ourFen: u.row.amountFen,
        ourState: u.row.state,
        detail: '我们记为已退款，支付平台账单里没有这笔退款',
      },
    ]
  })
}
