import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/** Forgets the WeChat Pay openids linked to a member (account deletion). */
export async function deleteMemberPayOpenids(tx: DbOrTx, memberId: number) {
  return (await tx.execute(sql`delete from wechat_pay_openids where member_id = ${memberId}`)).rowCount ?? 0
}
