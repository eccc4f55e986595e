import type { DbOrTx } from '#server/db/database.ts'
import { moveCouponRows } from './coupons-merge.repository.ts'

/** Bind phone's merge (server/use-cases/merge-members.ts): the coupons of `from` now belong to `to`. */
export async function moveMemberCoupons(tx: DbOrTx, from: number, to: number) {
  return { coupons: await moveCouponRows(tx, from, to) }
}
