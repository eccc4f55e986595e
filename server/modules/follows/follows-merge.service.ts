import type { DbOrTx } from '#server/db/database.ts'
import { moveFollowRows } from './follows-merge.repository.ts'

/** Bind phone's merge (server/use-cases/merge-members.ts): the teachers `from` follows, `to` now follows. */
export async function moveMemberFollows(tx: DbOrTx, from: number, to: number) {
  return { follows: await moveFollowRows(tx, from, to) }
}
