import type { DbOrTx } from '#server/db/database.ts'
import { moveAttributionRow } from './attribution-merge.repository.ts'

/** Bind phone's merge (server/use-cases/merge-members.ts): the promotion source, when `to` had none. */
export async function moveMemberAttribution(tx: DbOrTx, from: number, to: number) {
  return { attribution: await moveAttributionRow(tx, from, to) }
}
