import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

// A member's own data (issue 10 §5, PIPL): what we hold about them, and its erasure on account deletion.

export async function selectProfile(db: DbOrTx, memberId: number) {
  const r = await db.execute(sql`
    select id, phone, nickname, avatar_url, gender, wx_openid, wx_unionid, is_purchaser, created_at, last_login_at
    from members where id = ${memberId}`)
  return r.rows[0] ?? null
}

/** Removes who the member is (phone, WeChat identity, name, picture); the row stays for the order records. */
export async function anonymiseMember(db: DbOrTx, memberId: number, now: Date) {
  const r = await db.execute(sql`
    update members set phone = null, wx_openid = null, wx_unionid = null, nickname = '已注销用户',
      avatar_url = null, gender = 0, is_purchaser = false, deleted_at = ${now.toISOString()}::timestamptz,
      updated_at = ${now.toISOString()}::timestamptz
    where id = ${memberId} and deleted_at is null`)
  return r.rowCount ?? 0
}
