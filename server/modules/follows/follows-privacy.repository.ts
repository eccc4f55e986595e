import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

export async function selectMemberFollows(db: DbOrTx, memberId: number) {
  return (await db.execute(sql`select * from follows where member_id = ${memberId}`)).rows
}

export async function deleteMemberFollows(tx: DbOrTx, memberId: number) {
  return (await tx.execute(sql`delete from follows where member_id = ${memberId}`)).rowCount ?? 0
}
