import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/** A member's rights to watch and VIP membership (data export, issue 10 §5). */
export async function selectMemberAccess(db: DbOrTx, memberId: number) {
  const [e, v] = await Promise.all([
    db.execute(sql`
      select course_id, source, source_ref, granted_at, expires_at, revoked_at
      from entitlements where member_id = ${memberId} order by id`),
    db.execute(sql`select * from vip_memberships where member_id = ${memberId}`),
  ])
  return { entitlements: e.rows, vip: v.rows[0] ?? null }
}
