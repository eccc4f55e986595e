import { lt, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { deleteBatch } from '#server/db/rows.ts'
import { wechatPayOpenids } from '#server/db/schema/wechat.ts'

/** Keeps the openid a member's base-scope round trip gave, until `expiresAt` (one row per member, replaced). */
export async function upsertPayOpenid(
  db: DbOrTx,
  row: { memberId: number; openid: string; at: Date; expiresAt: Date },
) {
  await db.execute(sql`
    insert into wechat_pay_openids (member_id, openid, expires_at, created_at)
    values (${row.memberId}, ${row.openid}, ${row.expiresAt}, ${row.at})
    on conflict (member_id) do update set openid = excluded.openid, expires_at = excluded.expires_at,
      created_at = excluded.created_at`)
}

/** The member's stored openid while it is valid, or null. */
export async function findPayOpenid(db: DbOrTx, memberId: number, now: Date) {
  const result = await db.execute<{ openid: string }>(
    sql`select openid from wechat_pay_openids where member_id = ${memberId} and expires_at > ${now}`,
  )
  return result.rows[0]?.openid ?? null
}

/** Deletes up to `limit` pay openids that expired before `before`; how many. Skips rows others hold. */
export async function deleteExpiredPayOpenids(db: DbOrTx, before: Date, limit: number) {
  return deleteBatch(db, wechatPayOpenids.memberId, lt(wechatPayOpenids.expiresAt, before), limit)
}
