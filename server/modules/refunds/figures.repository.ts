import { and, gte, lt, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { refunds } from '#server/db/schema/refunds.ts'

// The operators' dashboard: money returned in a period (index refunds_completed_idx, its completed_at by skip
// scan; its predicate written out, since a generic plan uses a partial index only for a literal) and the refunds
// waiting for staff.

/** Refunds that succeeded in [from, to), by Beijing day: the money returned and how many. */
export async function succeededRefundFigures(db: DbOrTx, from: Date, to: Date) {
  const day = sql<string>`to_char(${refunds.completedAt} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`
  return db
    .select({ day, fen: sql<number>`coalesce(sum(${refunds.amountFen}), 0)::int`, refunds: sql<number>`count(*)::int` })
    .from(refunds)
    .where(and(sql`${refunds.state} = 'succeeded'`, gte(refunds.completedAt, from), lt(refunds.completedAt, to)))
    .groupBy(day)
}

/** Refunds waiting for staff: requests to decide and refunds that failed at the provider (index refunds_state_idx). */
export async function waitingRefundCounts(db: DbOrTx) {
  const [row] = await db
    .select({
      requested: sql<number>`count(*) filter (where ${refunds.state} = 'requested')::int`,
      failed: sql<number>`count(*) filter (where ${refunds.state} = 'failed')::int`,
    })
    .from(refunds)
    .where(sql`${refunds.state} in ('requested', 'failed')`)
  return row ?? { requested: 0, failed: 0 }
}
