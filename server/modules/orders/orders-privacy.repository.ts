import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/** A member's orders with their items, oldest first (data export, issue 10 §5). */
export async function selectMemberOrders(db: DbOrTx, memberId: number) {
  const r = await db.execute(sql`
    select o.order_no, o.kind, o.title, o.state, o.amount_fen, o.original_fen, o.discount_fen, o.points_used,
      o.refunded_fen, o.pay_method, o.provider, o.created_at, o.paid_at,
      coalesce((select json_agg(json_build_object('title', i.title, 'course_id', i.course_id,
        'vip_plan_id', i.vip_plan_id, 'price_fen', i.price_fen) order by i.id)
        from order_items i where i.order_id = o.id), '[]') as items
    from orders o where o.member_id = ${memberId} order by o.id`)
  return r.rows
}
