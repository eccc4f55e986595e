import type { Db } from '#server/db/database.ts'
import type { AuthService } from '#server/modules/auth/auth.service.ts'
import { accessForExport } from '#server/modules/access/access.service.ts'
import { commentsForExport } from '#server/modules/comments/comments.service.ts'
import { favouritesForExport } from '#server/modules/favourites/favourites.service.ts'
import { followsForExport } from '#server/modules/follows/follows.service.ts'
import { learningForExport } from '#server/modules/learning/learning.service.ts'
import { profileForExport } from '#server/modules/members/members.service.ts'
import { ordersForExport } from '#server/modules/orders/orders.service.ts'
import { pointsForExport } from '#server/modules/points/points.service.ts'
import { memberSessions } from '#server/modules/sessions/session.service.ts'

export interface AccountDeps {
  db: Db
  now: () => Date
  auth: Pick<AuthService, 'verifyAccountCode'>
}

/** Checks a member's account code (purpose `account`) in its own transaction, so a wrong try is recorded. */
async function confirmAccountCode(deps: AccountDeps, memberId: number, code: string, now: Date) {
  const verified = await deps.db.transaction((tx) => deps.auth.verifyAccountCode(tx, memberId, code, now))
  if (!verified.ok) throw verified.error
}

/**
 * POST /api/account/export (issue 10 §5, PIPL): after a fresh SMS code, everything we hold about the member as one
 * JSON document: profile, orders with their items, rights to watch and VIP, viewing progress and notes, comments
 * and likes, favourites and follows, points and their ledger, sign-in sessions.
 */
export async function exportMemberData(deps: AccountDeps, memberId: number, code: string) {
  const now = deps.now()
  await confirmAccountCode(deps, memberId, code, now)
  const { db } = deps
  const [profile, orders, access, learning, comments, favourites, follows, points, sessions] = await Promise.all([
    profileForExport(db, memberId),
    ordersForExport(db, memberId),
    accessForExport(db, memberId),
    learningForExport(db, memberId),
    commentsForExport(db, memberId),
    favouritesForExport(db, memberId),
    followsForExport(db, memberId),
    pointsForExport(db, memberId),
    memberSessions(db, memberId, now, 1000),
  ])
  return {
    exported_at: now.toISOString(),
    profile,
    orders,
    entitlements: access.entitlements,
    vip: access.vip,
    progress: learning.progress,
    notes: learning.notes,
    comments: comments.comments,
    comment_likes: comments.likes,
    favourites,
    follows,
    points,
    sessions,
  }
}
