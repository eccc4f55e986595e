import type { DbOrTx } from '#server/db/database.ts'
import { moveMemberAccess } from '#server/modules/access/access-merge.service.ts'
import { moveMemberAttribution } from '#server/modules/attribution/attribution-merge.service.ts'
import { moveMemberComments } from '#server/modules/comments/comments-merge.service.ts'
import { moveMemberCoupons } from '#server/modules/coupons/coupons-merge.service.ts'
import { moveMemberExchanges } from '#server/modules/exchange/exchange-merge.service.ts'
import { moveMemberFavourites } from '#server/modules/favourites/favourites-merge.service.ts'
import { moveMemberFollows } from '#server/modules/follows/follows-merge.service.ts'
import { moveMemberLearning } from '#server/modules/learning/learning-merge.service.ts'
import { moveMemberUploads } from '#server/modules/media/media-merge.service.ts'
import { finishMerge, lockMergePair } from '#server/modules/members/members-merge.service.ts'
import { moveMemberOrders } from '#server/modules/orders/orders-merge.service.ts'
import { moveMemberPoints } from '#server/modules/points/points-merge.service.ts'
import { moveMemberRedeemUses } from '#server/modules/redeem/redeem-merge.service.ts'
import { moveMemberRefunds } from '#server/modules/refunds/refunds-merge.service.ts'
import { endMemberSessions } from '#server/modules/sessions/sessions-merge.service.ts'

/**
 * Makes two members one (issue 10 §3, bind phone): everything `absorbedId` has moves to `survivorId` inside the
 * caller's transaction — rights to watch and VIP, orders and refunds, points (two new ledger entries), progress
 * (the furthest position kept), notes, favourites, follows, coupons, comments and likes, uploads, the promotion
 * source, redeem code uses and exchanged platform orders — then the absorbed member is marked merged, its WeChat
 * identity moves to the survivor, the merge is logged with the counts, and its sessions end. Both member rows are locked first (id order), so a second merge
 * of either waits and then finds the absorbed member already merged.
 *
 * Not moved: click statistics and overlay clicks (anonymous-capable counters), idempotency keys, the staff
 * action record (history of who did what), OAuth code records, redeem code batches a staff member created and
 * uses they revoked (staff history), and the redeem guessing counters (an hour's window); they keep pointing at the absorbed member's row,
 * which is kept for that reason.
 */
export async function mergeMembers(
  tx: DbOrTx,
  input: { survivorId: number; absorbedId: number; reason: string; now: Date },
) {
  const { survivorId: to, absorbedId: from, now } = input
  const pair = await lockMergePair(tx, to, from)
  const moved: Record<string, number> = {
    ...(await moveMemberAccess(tx, from, to)),
    ...(await moveMemberOrders(tx, from, to)),
    ...(await moveMemberRefunds(tx, from, to)),
    ...(await moveMemberPoints(tx, from, to, now)),
    ...(await moveMemberLearning(tx, from, to)),
    ...(await moveMemberFavourites(tx, from, to)),
    ...(await moveMemberFollows(tx, from, to)),
    ...(await moveMemberCoupons(tx, from, to)),
    ...(await moveMemberComments(tx, from, to)),
    ...(await moveMemberUploads(tx, from, to)),
    ...(await moveMemberAttribution(tx, from, to)),
    ...(await moveMemberRedeemUses(tx, from, to)),
    ...(await moveMemberExchanges(tx, from, to)),
  }
  const ended = await endMemberSessions(tx, from, now)
  await finishMerge(tx, { ...pair, reason: input.reason, moved: { ...moved, ...ended }, at: now })
  return moved
}
