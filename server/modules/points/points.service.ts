import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { memberExists } from '#server/modules/members/members.service.ts'
import { creditPoints, debitPoints, listEntries, pointBalance } from './points.repository.ts'

/** The points ledger as members and operators see it; orders earn and spend through fulfilment and checkout. */
export function createPointService(deps: { db: Db; config: Config; now: () => Date }) {
  const { db, config, now } = deps
  return {
    /** A member's balance, the rules, and their ledger newest first (GET /points). */
    async summary(memberId: number, filter: { cursor?: number; limit: number }) {
      const [balance, rows] = await Promise.all([
        pointBalance(db, memberId),
        listEntries(db, memberId, { before: filter.cursor, limit: filter.limit + 1 }),
      ])
      const page = rows.slice(0, filter.limit)
      const rules = config.payments.points
      return {
        balance,
        fen_per_point: rules.fenPerPoint,
        max_percent: rules.maxPercent,
        earn_per_yuan: rules.earnPerYuan,
        list: page.map(({ entry: e, orderNo }) => ({
          id: e.id,
          delta: e.delta,
          balance_after: e.balanceAfter,
          reason: e.reason,
          order_no: orderNo,
          note: e.note,
          created_at: e.createdAt.toISOString(),
        })),
        next_cursor: rows.length > filter.limit ? page[page.length - 1]!.entry.id : null,
      }
    },

    /** An operator adds or takes points with a reason; a ledger entry records who. Never below zero. */
    async adjust(staffId: number, memberId: number, delta: number, note: string) {
      if (!(await memberExists(db, memberId)))
        throw new AppError(Codes.NotFound, `会员 ${memberId} 不存在（member_id）`)
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
      if (balance === null) throw new AppError(Codes.PointsInsufficient, '积分余额不足，不能扣减这么多')
      return { member_id: memberId, balance }
    },
  }
}

export type PointService = ReturnType<typeof createPointService>
