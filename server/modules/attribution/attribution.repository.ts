import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { attributions } from '#server/db/schema/attribution.ts'

/** Records a first touch; a later touch by the same visitor or member changes nothing. */
export async function insertFirstTouch(
  db: DbOrTx,
  touch: { visitorId?: string; memberId?: number; sp: string; url?: string },
) {
  const rows = []
  if (touch.visitorId) rows.push({ visitorId: touch.visitorId, sp: touch.sp, url: touch.url })
  if (touch.memberId) rows.push({ memberId: touch.memberId, sp: touch.sp, url: touch.url })
  if (rows.length === 0) return
  await db.insert(attributions).values(rows).onConflictDoNothing()
}

/** Credits a member who just signed in with the first touch of the browser they signed in from, if it had one. */
export async function copyVisitorTouchToMember(db: DbOrTx, visitorId: string, memberId: number) {
  await db.execute(sql`
    insert into attributions (member_id, sp, url, created_at)
    select ${memberId}, sp, url, created_at from attributions where visitor_id = ${visitorId}
    on conflict do nothing`)
}
