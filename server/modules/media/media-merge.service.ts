import type { DbOrTx } from '#server/db/database.ts'
import { moveUploadRows } from './media-merge.repository.ts'

/** Bind phone's merge (server/use-cases/merge-members.ts): the uploads of `from` now belong to `to`. */
export async function moveMemberUploads(tx: DbOrTx, from: number, to: number) {
  return { uploads: await moveUploadRows(tx, from, to) }
}
