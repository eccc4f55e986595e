import { and, gte, lt, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { members } from '#server/db/schema/members.ts'

/** Members who joined in [from, to), by Beijing day (the operators' dashboard; index members_created_idx). */
export async function newMemberFigures(db: DbOrTx, from: Date, to: Date) {
  const day = sql<string>`to_char(${members.createdAt} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`
  return db
    .select({ day, members: sql<number>`count(*)::int` })
    .from(members)
    .where(and(gte(members.createdAt, from), lt(members.createdAt, to)))
    .groupBy(day)
}
