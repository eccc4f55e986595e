import type { DbOrTx } from '#server/db/database.ts'
import { moveOrderRows } from './orders-merge.repository.ts'

/** Bind phone's merge (server/use-cases/merge-members.ts): the orders of `from` now belong to `to`. */
export function moveMemberOrders(tx: DbOrTx, from: number, to: number) {
  return moveOrderRows(tx, from, to)
}
