import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/**
 * Moves a member's rights to watch to another member (bind phone merges two members, issue 10 §3): every
 * entitlement row changes hands as it is (source, expiry, revocation kept), and the VIP expiry becomes the later
 * of the two. Returns how many entitlements moved and whether a VIP moved.
 */
export async function moveAccessRows(tx: DbOrTx, from: number, to: number) {
  const moved = await tx.execute(sql`update entitlements set member_id = ${to} where member_id = ${from}`)
  const vip = await tx.execute(sql`
    with gone as (delete from vip_memberships where member_id = ${from} returning expires_at, updated_at)
    insert into vip_memberships (member_id, expires_at, updated_at)
    select ${to}, expires_at, updated_at from gone
    on conflict (member_id) do update
      set expires_at = greatest(vip_memberships.expires_at, excluded.expires_at),
          updated_at = greatest(vip_memberships.updated_at, excluded.updated_at)`)
  return { entitlements: moved.rowCount ?? 0, vip: vip.rowCount ?? 0 }
}
