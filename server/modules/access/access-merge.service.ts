import type { DbOrTx } from '#server/db/database.ts'
import { moveAccessRows } from './access-merge.repository.ts'

/** Bind phone's merge (server/use-cases/merge-members.ts): entitlements and VIP of `from` now belong to `to`. */
export function moveMemberAccess(tx: DbOrTx, from: number, to: number) {
  return moveAccessRows(tx, from, to)
}
