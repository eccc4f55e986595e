import { and, gte, lt, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { pointEntries } from '#server/db/schema/points.ts'

/** The points ledger in [from, to) by Beijing day: points given and taken (the operators' dashboard). */
export async function pointFigures(db: DbOrTx, from: Date, to: Date) {
  const day = sql<string>`to_char(${pointEntries.createdAt} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`
  return db
    .select({
      day,
      given: sql<number>`coalesce(sum(${pointEntries.delta}) filter (where ${pointEntries.delta} > 0), 0)::int`,
      taken: sql<number>`coalesce(-sum(${pointEntries.delta}) filter (where ${pointEntries.delta} < 0), 0)::int`,
    })
    .from(pointEntries)
    .where(and(gte(pointEntries.createdAt, from), lt(pointEntries.createdAt, to)))
    .groupBy(day)
}
