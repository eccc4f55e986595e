import type { DbOrTx } from '#server/db/database.ts'
import { moveRefundRows } from './refunds-merge.repository.ts'

/** Bind phone's merge (server/use-cases/merge-members.ts): the refunds of `from` now belong to `to`. */
export async function moveMemberRefunds(tx: DbOrTx, from: number, to: number) {
  return { refunds: await moveRefundRows(tx, from, to) }
}
