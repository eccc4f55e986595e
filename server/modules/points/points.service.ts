import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/database.ts'
import type { StatementPart } from '#server/db/prepared.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { PointRules } from '#server/integrations/payments/payments-config.ts'
import { memberExists } from '#server/modules/members/members.service.ts'
import { ordersByIds } from '#server/modules/orders/orders.service.ts'
import { entryView } from './ledger-admin.ts'
import { pointsEarned, pointsFor } from './points-rules.ts'
import {
  creditPoints,
  debitPoints,
  earnForOrder,
  listEntries,
  lockBalance,
  orderEarningPart,
  orderPointNet,
  pointBalance,
} from './points.repository.ts'
import { pageById } from '#server/http/cursor.ts'
import { idsOf } from '#server/http/present.ts'

/** The points ledger as members and operators see it; orders earn and spend through the use cases. */
export function createPointService(deps: { db: Db; config: Config; now: () => Date }) {
  const { db, config, now } = deps
  return {
    /** A member's balance, the rules, and their ledger newest first (GET /points). */
    async summary(memberId: number, filter: { cursor?: number; limit: number }) {
      const [balance, rows] = await Promise.all([
        pointBalance(db, memberId),
        listEntries(db, memberId, { before: filter.cursor, limit: filter.limit + 1 }),
      ])
      const { page, nextCursor } = pageById(rows, filter.limit)
      const orders = await ordersByIds(db, idsOf(page, 'orderId'))
      const rules = config.payments.points
      return {
        balance,
        fen_per_point: rules.fenPerPoint,
        max_percent: rules.maxPercent,
        earn_per_yuan: rules.earnPerYuan,
        list: page.map((e) => entryView(e, orders)),
        next_cursor: nextCursor,
      }
    },

    /** An operator adds or takes points with a reason; a ledger entry records who. Never below zero. */
    async adjust(staffId: number, memberId: number, delta: number, note: string) {
      if (!(await memberExists(db, memberId)))
        throw new AppError(Codes.NotFound, `会员 ${memberId} 不存在`, { field: 'member_id' })
      const change = {
        memberId,
        points: Math.abs(delta),
        reason: 'admin_adjust' as const,
        actor: `admin:${staffId}`,
        note,
        at: now(),
      }
      const balance = await db.transaction(async (tx) =>
        delta > 0 ? creditPoints(tx, change) : debitPoints(tx, change),
      )
      if (balance === null)
        throw new AppError(Codes.PointsInsufficient, '积分余额不足，不能扣减这么多', { field: 'delta' })
      return { member_id: memberId, balance }
    },
  }
}

export type PointService = ReturnType<typeof createPointService>

// ---- Points at checkout, payment and refund (server/use-cases): functions that take `tx` run in its transaction

/** The member's balance now (0 without a balance row). */
export const pointBalanceOf = pointBalance

/**
 * Locks the member's balance row for the transaction (creating it at 0) and returns the balance: checkout takes
 * it first, so one member's checkouts run one after the other and count coupons and points in order.
 */
export const lockPointBalance = lockBalance

/** Adds points with their ledger entry; returns the new balance. */
export const addPoints = creditPoints

/** Takes points only if the balance covers them; returns the new balance, or null when it does not. */
export const takePoints = debitPoints

/** Net points an order earned (still held) and spent (not returned yet), from its ledger entries. */
export const orderPoints = orderPointNet

/**
 * Credits what a paid order earns unless it earned it already (one statement; a replayed payment credits
 * nothing). Returns whether points were credited.
 */
export const earnOrderPoints = earnForOrder

/** The most points that may pay for part of `amountFen` (the configured share), at most `balance`. */
export function maxPointsFor(amountFen: number, balance: number, rules: PointRules) {
  return pointsFor(amountFen, balance, rules).points
}

/** Points a paid amount earns (rounded down). */
export function pointsEarnedBy(amountFen: number, rules: PointRules) {
  return pointsEarned(amountFen, rules)
}

/** `earnOrderPoints` as this module's part of the payment fast path's single statement (orders `settlePendingOrder`). */
export function earnPointsInSettlement(points: number, at: Date): StatementPart {
  return orderEarningPart(points, at)
}

/** Points given and taken in a period, by Beijing day (operators' dashboard). */
export { pointFigures } from './figures.repository.ts'

/** Every member's ledger for the operators' console (ledger-admin.ts). */
export { createPointLedgerAdmin, type PointLedgerAdmin } from './ledger-admin.ts'

/** A member's points balance and ledger (data export, issue 10 §5); the ledger is kept on deletion. */
export { selectMemberPoints as pointsForExport } from './points-privacy.repository.ts'
