import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { eraseMemberComments } from '#server/modules/comments/comments.service.ts'
import { eraseMemberFavourites } from '#server/modules/favourites/favourites.service.ts'
import { eraseMemberFollows } from '#server/modules/follows/follows.service.ts'
import { eraseMemberLearning } from '#server/modules/learning/learning.service.ts'
import { eraseMemberUploads, type MediaService } from '#server/modules/media/media.service.ts'
import { anonymiseMember, memberRoles } from '#server/modules/members/members.service.ts'
import { revokeSessionsOf } from '#server/modules/sessions/session.service.ts'
import { eraseMemberPayOpenids } from '#server/modules/wechat/wechat.service.ts'
import type { FastifyBaseLogger } from 'fastify'
import type { AccountDeps } from './export-member-data.ts'

export interface DeleteAccountDeps extends AccountDeps {
  media: Pick<MediaService, 'removeStoredUploads'>
}

/**
 * POST /api/account/delete (issue 10 §5, PIPL): after a fresh SMS code, in one transaction, the member's personal
 * data goes — viewing progress and notes, comments and likes, favourites, follows, uploaded images (the avatar),
 * WeChat Pay openids — the member
 * row is anonymised (no phone, WeChat identity, name or picture, `deleted_at` set) and every session ends. What the
 * law requires for accounting stays, tied only to the anonymised row: orders, payments and refunds, the points
 * ledger and the rights those orders gave. The image files leave storage once the transaction has committed.
 * Staff accounts are closed by an admin, not here.
 */
export async function deleteMemberAccount(
  deps: DeleteAccountDeps,
  memberId: number,
  code: string,
  log: Pick<FastifyBaseLogger, 'warn'>,
) {
  const { db } = deps
  if (((await memberRoles(db, memberId)) ?? []).length > 0)
    throw new AppError(Codes.Forbidden, '员工账号不能自行注销，请联系管理员')
  const now = deps.now()
  const result = await db.transaction(async (tx) => {
    const verified = await deps.auth.verifyAccountCode(tx, memberId, code, now)
    if (!verified.ok) return verified
    const images = await eraseMemberUploads(tx, memberId)
    const erased = {
      ...(await eraseMemberLearning(tx, memberId)),
      ...(await eraseMemberComments(tx, memberId)),
      favourites: await eraseMemberFavourites(tx, memberId),
      follows: await eraseMemberFollows(tx, memberId),
      pay_openids: await eraseMemberPayOpenids(tx, memberId),
      sessions: await revokeSessionsOf(tx, memberId, now),
      images: images.length,
    }
    await anonymiseMember(tx, memberId, now)
    return { ok: true as const, erased, images }
  })
  if (!result.ok) throw result.error
  await deps.media.removeStoredUploads(result.images, log)
  return { deleted: true, erased: result.erased }
}
