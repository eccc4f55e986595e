import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/**
 * Moves a member's orders to another member (bind phone's merge). A pending order for a target the other member
 * also has pending stays with `from` (one pending order per member and target): it expires and is closed by the
 * sweep like any other. Idempotency keys stay too (they only replay answers to `from`'s own requests).
 * Returns how many moved and how many stayed.
 */
export async function moveOrderRows(tx: DbOrTx, from: number, to: number) {
  const moved = await tx.execute(sql`
    update orders o set member_id = ${to}, updated_at = updated_at
    where o.member_id = ${from}
      and not (o.state = 'pending' and exists (
        select 1 from orders p
        where p.member_id = ${to} and p.kind = o.kind and p.target = o.target and p.state = 'pending'))`)
  const left = await tx.execute(sql`select 1 from orders where member_id = ${from}`)
  return { orders: moved.rowCount ?? 0, ordersLeft: left.rowCount ?? 0 }
}
