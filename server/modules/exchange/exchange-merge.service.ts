import type { DbOrTx } from '#server/db/database.ts'
import { moveExchangeRecordRows } from './exchange-merge.repository.ts'

/** Bind phone's merge (server/use-cases/merge-members.ts): the platform order exchanges of `from` now are `to`'s. */
export async function moveMemberExchanges(tx: DbOrTx, from: number, to: number) {
  return { exchange_records: await moveExchangeRecordRows(tx, from, to) }
}
