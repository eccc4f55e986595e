import type { DbOrTx } from '#server/db/database.ts'
import { moveCommentRows } from './comments-merge.repository.ts'

/** Bind phone's merge (server/use-cases/merge-members.ts): the comments and likes of `from` now belong to `to`. */
export function moveMemberComments(tx: DbOrTx, from: number, to: number) {
  return moveCommentRows(tx, from, to)
}
