import type { PaymentProviderName } from '#server/db/schema/orders.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { ProviderError, type ProviderBill } from '#server/integrations/payments/payments.ts'
import { ordersByIds, ordersByNos, ordersPaidBetween, type OrderRow } from '#server/modules/orders/orders.service.ts'
import {
  compareBill,
  missingTheirs,
  reconciledDays,
  recordReconciliation,
  type OurPayment,
  type OurRefund,
} from '#server/modules/payments/reconciliation.service.ts'
import {
  refundsByNos,
  refundsOfTransactions,
  refundsSucceededBetween,
  type RefundRow,
} from '#server/modules/refunds/refunds.service.ts'
import { beijingDate, beijingDayFromText } from '#shared/time.ts'
import type { CommerceDeps } from './commerce-deps.ts'

const DAY_MS = 86_400_000
/** Bills of a day are ready the next morning (WeChat Pay: after 10:00; Alipay: before 9:00). */
const BILLS_READY_AFTER_MS = 10 * 3600_000
/** How many past days the daily job looks at: a day missed (no process ran, a bill late) is caught up. */
const LOOKBACK_DAYS = 3

const ourPayment = (o: OrderRow): OurPayment => ({
  orderNo: o.orderNo,
  state: o.state,
  amountFen: o.amountFen,
  provider: o.provider,
  transactionId: o.providerTxnId,
})

/**
 * Compares a provider's trade bill of one Beijing day (yyyy-MM-dd) with our payments and refunds and records what
 * differs for staff (payments module): payments or refunds the provider has and we do not, ours it does not list
 * (nor the day before: we learn of a payment a little after it is made), and amounts or states that differ. A bill
 * that cannot be had (not made yet, the provider down) records a failed run; the daily job tries again.
 */
export async function reconcileBills(deps: CommerceDeps, provider: PaymentProviderName, date: string) {
  const { db, providers, now } = deps
  if (date >= beijingDate(now())) throw new AppError(Codes.BadRequest, '只能对账今天以前的账单', { field: 'bill_date' })
  if (!deps.config.payments[provider].enabled)
    throw new AppError(Codes.BadRequest, '该支付方式未开通', { field: 'provider' })
  const failed = (err: ProviderError) =>
    deps.transaction((tx) =>
      recordReconciliation(tx, { provider, billDate: date, at: now(), state: 'failed', error: err.message }, []),
    )
  let bill: ProviderBill
  try {
    bill = await providers[provider].tradeBill(date)
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err
    return failed(err)
  }
  const from = beijingDayFromText(date)
  const to = beijingDayFromText(date, 1)
  const orders = await ordersByNos(
    db,
    [...bill.payments, ...bill.refunds].map((x) => x.orderNo),
  )
  const second = await refundsOfTransactions(
    db,
    bill.payments.filter((p) => orders.get(p.orderNo)?.providerTxnId !== p.transactionId).map((p) => p.transactionId),
  )
  const refunds = await refundsByNos(
    db,
    bill.refunds.map((r) => r.refundNo),
  )
  const refundedThatDay = await refundsSucceededBetween(db, provider, from, to)
  const refundOrders = await ordersByIds(
    db,
    [...refunds.values(), ...refundedThatDay].map((r) => r.orderId),
  )
  const ourRefund = (r: RefundRow): OurRefund => ({
    refundNo: r.refundNo,
    orderNo: refundOrders.get(r.orderId)?.orderNo ?? '',
    state: r.state,
    amountFen: r.amountFen,
  })
  const { found, unbilled } = compareBill(provider, bill, {
    orders: new Map([...orders].map(([no, o]) => [no, ourPayment(o)])),
    secondPayments: new Map(
      second.filter((r) => r.provider === provider && r.providerTxnId).map((r) => [r.providerTxnId!, r.paymentFen]),
    ),
    refunds: new Map([...refunds].map(([no, r]) => [no, ourRefund(r)])),
    paidThatDay: (await ordersPaidBetween(db, provider, from, to)).map(ourPayment),
    refundedThatDay: refundedThatDay.map(ourRefund),
  })
  let differences = found
  if (unbilled.length > 0) {
    try {
      const dayBefore = await providers[provider].tradeBill(beijingDate(new Date(from.getTime() - DAY_MS)))
      differences = [...found, ...missingTheirs(unbilled, dayBefore)]
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err
      return failed(err)
    }
  }
  return deps.transaction((tx) =>
    recordReconciliation(
      tx,
      {
        provider,
        billDate: date,
        at: now(),
        state: 'done',
        billPayments: bill.payments.length,
        billRefunds: bill.refunds.length,
      },
      differences,
    ),
  )
}

/**
 * The daily reconciliation (server/modules/payments/reconciliation-job.ts runs it every hour): each enabled
 * provider's bills of the last days that are ready (the next morning) and not reconciled yet. Returns the runs.
 */
export async function reconcileDueDays(deps: CommerceDeps) {
  const at = deps.now()
  const runs = []
  for (const provider of ['wechat', 'alipay'] as const) {
    if (!deps.config.payments[provider].enabled) continue
    const days: string[] = []
    for (let back = LOOKBACK_DAYS; back >= 1; back--) {
      const day = beijingDate(new Date(at.getTime() - back * DAY_MS))
      if (at.getTime() >= beijingDayFromText(day, 1).getTime() + BILLS_READY_AFTER_MS) days.push(day)
    }
    if (days.length === 0) continue
    const done = await reconciledDays(deps.db, provider, days[0]!)
    for (const day of days) if (!done.has(day)) runs.push(await reconcileBills(deps, provider, day))
  }
  return runs
}
