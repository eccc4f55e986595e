import type { DbOrTx } from '#server/db/database.ts'
import { moveFavouriteRows } from './favourites-merge.repository.ts'

/** Bind phone's merge (server/use-cases/merge-members.ts): the favourites of `from` now belong to `to`. */
export async function moveMemberFavourites(tx: DbOrTx, from: number, to: number) {
  return { favourites: await moveFavouriteRows(tx, from, to) }
}
