import type { DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { foldMember, lockMembers, type MergeCandidate } from './members-merge.repository.ts'

export type { MergeCandidate }

/**
 * Locks both members (id order) for a merge of `absorbedId` into `survivorId` and checks that the two may become
 * one: both exist and are not merged already, neither is staff (a merge must never hand out or drop a role), the
 * absorbed member has no phone of its own (it would be lost), and they are not two different WeChat users (one
 * member holds one WeChat identity). Throws 433 PhoneTaken (the phone stays with its holder) when they may not.
 */
export async function lockMergePair(tx: DbOrTx, survivorId: number, absorbedId: number) {
  const rows = await lockMembers(tx, [survivorId, absorbedId])
  const survivor = rows.get(survivorId)
  const absorbed = rows.get(absorbedId)
  if (!absorbed || absorbed.mergedIntoId !== null) throw new AppError(Codes.NotLoggedIn)
  const refusal = survivor ? mergeRefusal(survivor, absorbed) : '该手机号已绑定其他账号'
  if (refusal) throw new AppError(Codes.PhoneTaken, refusal)
  return { survivor: survivor!, absorbed }
}

/** Why these two members may not be merged, or null when they may (see lockMergePair). */
function mergeRefusal(survivor: MergeCandidate, absorbed: MergeCandidate): string | null {
  if (survivor.id === absorbed.id || survivor.mergedIntoId !== null) return '该手机号已绑定其他账号'
  if (survivor.role !== 'member' || absorbed.role !== 'member') return '该手机号已绑定其他账号，请联系客服合并'
  if (absorbed.phone !== null) return '该手机号已绑定其他账号'
  const twoWechatUsers =
    (survivor.wxUnionid && absorbed.wxUnionid && survivor.wxUnionid !== absorbed.wxUnionid) ||
    (survivor.wxOpenid && absorbed.wxOpenid && survivor.wxOpenid !== absorbed.wxOpenid)
  if (twoWechatUsers) return '该手机号已绑定其他微信账号'
  return null
}

/**
 * Whether the signed-in member (`absorbedId`) could be merged into the phone's holder, read without locking (the
 * send-code step and the check before a code is tried; the merge itself checks again under its locks).
 */
export async function mergeRefusalFor(tx: DbOrTx, survivorId: number, absorbedId: number) {
  const rows = await lockMembers(tx, [survivorId, absorbedId], false)
  const survivor = rows.get(survivorId)
  const absorbed = rows.get(absorbedId)
  if (!survivor || !absorbed) return '该手机号已绑定其他账号'
  return mergeRefusal(survivor, absorbed)
}

/** Ends the merge: the absorbed member marked, identities moved, the log row written (after the rows moved). */
export function finishMerge(
  tx: DbOrTx,
  m: { survivor: MergeCandidate; absorbed: MergeCandidate; reason: string; moved: Record<string, number>; at: Date },
) {
  return foldMember(tx, m)
}
