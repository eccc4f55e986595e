import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { statEvents } from '#server/db/schema/stats.ts'

export async function insertStatEvent(
  db: DbOrTx,
  row: {
    event: string
    memberId: number | null
    position: string | null
    page: string | null
    courseId?: number | null
    createdAt: Date
  },
) {
  await db.insert(statEvents).values(row)
}

/** Events per Beijing day and event name in [from, to): count and distinct members. */
export async function rollupByDay(db: DbOrTx, from: Date, to: Date) {
  const rows = await db.execute<{ day: string; event: string; count: number; members: number }>(sql`
    select to_char(created_at at time zone 'Asia/Shanghai', 'YYYY-MM-DD') as day,
           event,
           count(*)::int as count,
           count(distinct member_id)::int as members
    from stat_events
    where created_at >= ${from.toISOString()}::timestamptz and created_at < ${to.toISOString()}::timestamptz
    group by 1, 2
    order by 1, 2`)
  return rows.rows
}
