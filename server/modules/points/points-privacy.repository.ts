import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/** A member's points balance and ledger (data export, issue 10 §5). The ledger is kept on deletion. */
export async function selectMemberPoints(db: DbOrTx, memberId: number) {
  const [b, e] = await Promise.all([
    db.execute(sql`select balance from point_balances where member_id = ${memberId}`),
    db.execute(sql`select * from point_entries where member_id = ${memberId} order by id`),
  ])
  return { balance: (b.rows[0] as { balance?: number } | undefined)?.balance ?? 0, entries: e.rows }
}
