import type { DbOrTx } from '#server/db/database.ts'
import { moveRedeemUseRows } from './redeem-merge.repository.ts'

/** Bind phone's merge (server/use-cases/merge-members.ts): the redeem code uses of `from` now belong to `to`. */
export async function moveMemberRedeemUses(tx: DbOrTx, from: number, to: number) {
  return { redeem_uses: await moveRedeemUseRows(tx, from, to) }
}
