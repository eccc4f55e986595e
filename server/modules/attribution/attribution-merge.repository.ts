import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/** The first touch of `from` becomes `to`'s when `to` has none (first touch wins); how many moved (0 or 1). */
export async function moveAttributionRow(tx: DbOrTx, from: number, to: number) {
  const moved = await tx.execute(sql`
    update attributions set member_id = ${to}
    where member_id = ${from} and not exists (select 1 from attributions where member_id = ${to})`)
  return moved.rowCount ?? 0
}
