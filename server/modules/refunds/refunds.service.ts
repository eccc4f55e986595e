import crypto from 'node:crypto'
import type { z } from 'zod'
import type { Config } from '#server/config.ts'
import type { Db, DbOrTx } from '#server/db/database.ts'
import type { ColumnPart } from '#server/db/prepared.ts'
import type { RefundState } from '#server/db/schema/refunds.ts'
import { Codes, type CodeEntry } from '#server/http/codes.ts'
import { apiFields, idsOf } from '#server/http/present.ts'
import { providerOf, type ProviderName } from '#server/integrations/payments/payments.ts'
import { courseVideoDurations } from '#server/modules/catalogue/catalogue.service.ts'
import { watchedPercent } from '#server/modules/learning/learning.service.ts'
import { findOwnOrder, orderItems, type OrderRow } from '#server/modules/orders/orders.service.ts'
import * as repo from './refunds.repository.ts'
import type { NewRefund, RefundChanges, RefundRow } from './refunds.repository.ts'
import type { RefundCheck, RefundView } from './refunds.schema.ts'

export type { RefundRow } from './refunds.repository.ts'
import { lineOptions, linesByRefund } from './refund-lines.ts'

// The refunds module's door: refunds (requested → processing → succeeded | failed, or rejected), the rule that
// says whether an order may be refunded, and the refund screens. Moving the order and taking back what it gave is
// the use cases' job (server/use-cases/*-refund.ts); functions that take `tx` run in the caller's transaction.

const DAY = 86_400_000

/** out_refund_no / out_request_no: RF + 10 digits of the time + 8 random digits. */
export function newRefundNo() {
  return `RF${Date.now().toString().slice(-10)}${crypto.randomInt(0, 1e8).toString().padStart(8, '0')}`
}

/** An order paid with points and/or a coupon alone: its refund moves no money and needs no provider. */
function paidWithoutMoney(order: Pick<OrderRow, 'amountFen' | 'payMethod'>) {
  return order.amountFen === 0 && (order.payMethod === 'points' || order.payMethod === 'free')
}

/** A unique index refused the row (drizzle may wrap the driver's error, keeping it as `cause`). */
export function isUniqueViolation(err: unknown) {
  return (err as { cause?: { code?: string } }).cause?.code === '23505' || (err as { code?: string }).code === '23505'
}

/** What every answer about a refund names. */
const refundBasics = ['refundNo', 'state', 'amountFen', 'reason'] as const

/** A refund as the API shows it (with its lines when it is a per-course refund). */
export function toRefundView(
  r: RefundRow,
  orderNo: string,
  lines?: z.infer<typeof RefundView>['lines'],
): z.infer<typeof RefundView> {
  return {
    ...(lines && { lines }),
    ...apiFields(r, [...refundBasics, 'kind', 'decisionNote', 'createdAt', 'decidedAt', 'completedAt']),
    order_no: orderNo,
  }
}

/**
 * A refund the system starts for money that cannot be kept (paid for something owned, paid after close, paid
 * twice): the whole payment back through the provider that took it, processing at once.
 */
export function automaticRefund(
  order: Pick<OrderRow, 'id' | 'memberId' | 'amountFen'>,
  provider: ProviderName,
  transactionId: string,
  movesOrder: boolean,
  reason: string,
  at: Date,
): NewRefund {
  return {
    refundNo: newRefundNo(),
    orderId: order.id,
    memberId: order.memberId,
    kind: 'automatic',
    provider,
    providerTxnId: transactionId,
    paymentFen: order.amountFen,
    amountFen: order.amountFen,
    reason,
    state: 'processing',
    movesOrder,
    createdAt: at,
    updatedAt: at,
  }
}

/** Whether a member's request is open (requested or processing) among these refunds of an order. */
export function hasOpenRequest(rows: RefundRow[]) {
  return rows.some((r) => r.kind === 'member' && (r.state === 'requested' || r.state === 'processing'))
}

/**
 * Why this order cannot be refunded now (Codes.Ok when it can): it must be paid (by a provider with money left,
 * or with points and coupons alone), within the window, with its courses watched under the limit, and without an
 * open request. `watched` is the share of its courses' video time the member has watched, null without courses.
 * `perLine`: a per-course refund, whose lines are checked one by one (`lineOptions`) instead of the whole order's
 * watching; it needs money paid through a provider.
 */
export async function refundRefusal(
  db: DbOrTx,
  rules: Pick<Config['payments'], 'refundWindowDays' | 'refundMaxWatchedPercent'>,
  order: OrderRow,
  open: boolean,
  now: Date,
  perLine = false,
): Promise<{ entry: CodeEntry; msg?: string; watched: number | null }> {
  const items = await orderItems(db, [order.id])
  const courseIds = items.flatMap((i) => (i.courseId === null ? [] : [i.courseId]))
  const watched =
    courseIds.length > 0 ? await watchedPercent(db, order.memberId, await courseVideoDurations(db, courseIds)) : null
  if (open) return { entry: Codes.RefundExists, watched }
  const paidByProvider = providerOf(order.payMethod) !== null && order.amountFen - order.refundedFen > 0
  if (
    !['paid', 'partially_refunded'].includes(order.state) ||
    !order.paidAt ||
    !(paidByProvider || (!perLine && paidWithoutMoney(order)))
  ) {
    return { entry: Codes.RefundNotAllowed, watched }
  }
  if (now.getTime() > order.paidAt.getTime() + rules.refundWindowDays * DAY) {
    return { entry: Codes.RefundWindowPassed, msg: `已超过 ${rules.refundWindowDays} 天退款期限`, watched }
  }
  if (!perLine && watched !== null && watched >= rules.refundMaxWatchedPercent) {
    return {
      entry: Codes.RefundWatchedTooMuch,
      msg: `课程已观看 ${watched}%，超过 ${rules.refundMaxWatchedPercent}% 后不能退款`,
      watched,
    }
  }
  return { entry: Codes.Ok, watched }
}

export { lineOptions, linesByRefund, linesHeldElsewhere, recordRefundLines } from './refund-lines.ts'

/** Records a refund (a member's request, or an automatic one). */
export function openRefund(tx: DbOrTx, row: NewRefund) {
  return repo.insertRefund(tx, row)
}

/** A refund by number, locked for the rest of the transaction; null when unknown. */
export function lockRefundByNo(tx: DbOrTx, refundNo: string) {
  return repo.lockRefundByNo(tx, refundNo)
}

/** A refund by id, or null. */
export function findRefund(db: DbOrTx, id: number) {
  return repo.findRefund(db, id)
}

/** A refund by number, or null. */
export function findRefundByNo(db: DbOrTx, refundNo: string) {
  return repo.findRefundByNo(db, refundNo)
}

/**
 * The newest refund of an order as a member reads it on their orders (退款审核中, 退款中, 已退款, 退款失败 or
 * 退款未通过, with the reason a person can act on), or null: a column the orders module adds to the statements
 * that read a member's orders (passed in by the composition root), so a page of orders stays one statement.
 */
export const latestRefundColumn: ColumnPart<ReturnType<typeof toRefundBrief> | null> = {
  name: 'refund',
  sql: repo.latestRefundSql,
  read: (value) => (value === null ? null : toRefundBrief(value as repo.RefundBriefRow)),
}

/**
 * Whether an order line was refunded (a course of a favourites or bundle order given back on its own): a column the
 * dashboard passes to the orders module's best sellers, so a sale given back does not count.
 */
export const refundedLineColumn: ColumnPart<boolean> = {
  name: 'refunded_line',
  sql: repo.refundedLineSql,
  read: (value) => value === true,
}

/** What a member is told about a refund's state and why. */
function toRefundBrief(r: repo.RefundBriefRow) {
  return {
    ...apiFields(r, refundBasics),
    note:
      r.state === 'rejected'
        ? r.decisionNote || '审核未通过'
        : r.state === 'failed'
          ? failureReason(r.lastError)
          : null,
  }
}

/**
 * A failed refund's reason as the member reads it: what happened and what comes next. The provider's own text
 * (often meant for the merchant: "余额不足，请充值") stays in the operators' view.
 */
function failureReason(lastError: string | null) {
  if (lastError && /ABNORMAL|USER_ACCOUNT|账户异常|已注销|冻结/i.test(lastError))
    return '收款账户异常（如银行卡已注销或冻结），无法原路退回，客服会联系你改用其他方式退款'
  return '原路退回暂未成功，工作人员会尽快重新处理；如有疑问请联系客服'
}

/** The refunds of an order, oldest first. */
export function refundsOfOrder(db: DbOrTx, orderId: number) {
  return repo.refundsOfOrder(db, orderId)
}

/** These refunds by refund number (the daily reconciliation looks up a bill's refunds). */
export async function refundsByNos(db: DbOrTx, refundNos: string[]): Promise<Map<string, RefundRow>> {
  const rows = await repo.findRefundsWhereIn(db, 'refundNo', [...new Set(refundNos)])
  return new Map(rows.map((r) => [r.refundNo, r]))
}

/** Refunds of these provider transactions (a second payment of an order is known by its automatic refund). */
export function refundsOfTransactions(db: DbOrTx, transactionIds: string[]) {
  return repo.findRefundsWhereIn(db, 'providerTxnId', [...new Set(transactionIds)])
}

/** Refunds through `provider` that succeeded within [from, to): our side of a day's bill. */
export function refundsSucceededBetween(db: DbOrTx, provider: ProviderName, from: Date, to: Date) {
  return repo.findSucceededBetween(db, provider, from, to)
}

/** Moves a refund from one of `from` to `to` (a conditional update); null when it was no longer in `from`. */
export function transitionRefund(
  tx: DbOrTx,
  id: number,
  from: readonly RefundState[],
  to: RefundState,
  set: RefundChanges,
  now: Date,
) {
  return repo.transitionRefund(tx, id, from, to, set, now)
}

/** Notes a send (or ask) at the provider that did not settle a processing refund: when, and what it said. */
export function noteRefundAttempt(
  db: DbOrTx,
  id: number,
  set: { sentAt: Date; providerRefundId?: string | null; lastError?: string | null },
  now: Date,
) {
  return repo.noteRefundAttempt(db, id, set, now)
}

/** Processing refunds never sent, or sent before `sentBefore` without a final answer. */
export function findRefundsToSend(db: DbOrTx, sentBefore: Date, limit: number) {
  return repo.findRefundsToSend(db, sentBefore, limit)
}

/** A failed refund goes back to processing (same number) with who retried it; null when it was no longer failed. */
export function markRefundRetried(tx: DbOrTx, id: number, staffId: number, at: Date) {
  return repo.markRefundRetried(tx, id, staffId, at)
}

/**
 * The refund screens: whether a member's order can be refunded now (and its refunds so far), and the refunds for
 * operators. Asking, deciding and sending are use cases (server/use-cases/*-refund.ts).
 */
export function createRefundService(deps: { db: Db; config: Config; now: () => Date }) {
  const { db, config, now } = deps
  const { refundWindowDays, refundMaxWatchedPercent } = config.payments

  return {
    /** What the refund screen shows: whether this order can be refunded now and why not, and its refunds so far. */
    async check(memberId: number, orderNo: string): Promise<z.infer<typeof RefundCheck>> {
      const order = await findOwnOrder(db, memberId, orderNo)
      const rows = await repo.refundsOfOrder(db, order.id)
      const lines = await lineOptions(db, config.payments, order)
      const open = hasOpenRequest(rows)
      let why = await refundRefusal(db, config.payments, order, open, now(), lines !== null)
      if (lines && why.entry === Codes.Ok && !lines.some((l) => l.refundable))
        why = { ...why, entry: Codes.RefundWatchedTooMuch, msg: '这笔订单已没有可退的课程' }
      const mine = rows.filter((r) => r.kind === 'member')
      const byRefund = await linesByRefund(db, idsOf(mine, 'id'))
      return {
        order_no: order.orderNo,
        refundable: why.entry === Codes.Ok,
        code: why.entry.code,
        msg: why.msg ?? why.entry.msg,
        amount_fen: order.amountFen - order.refundedFen,
        points_used: order.pointsUsed,
        window_days: refundWindowDays,
        deadline: order.paidAt ? new Date(order.paidAt.getTime() + refundWindowDays * DAY).toISOString() : null,
        max_watched_percent: refundMaxWatchedPercent,
        watched_percent: why.watched,
        lines,
        refunds: mine.map((r) => toRefundView(r, order.orderNo, byRefund.get(r.id))),
      }
    },
  }
}

/** Money returned in a period by Beijing day, and the refunds waiting for staff (operators' dashboard). */
export { succeededRefundFigures, waitingRefundCounts } from './figures.repository.ts'
