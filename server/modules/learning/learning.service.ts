import type { DbOrTx } from '#server/db/database.ts'
import type { LearningContext } from './context.ts'
import { createCourseStudy } from './course-study.ts'
import { DecisionCache } from './decision-cache.ts'
import { createNotes } from './notes.ts'
import { createPopups } from './popups.ts'
import { createDecisionLookup, createProgressSaves } from './progress.ts'
import { createProgressAuth } from './progress-auth.ts'
import { findRecentlyWatchedCourseIds } from './recent.repository.ts'
import { createStudyRecord } from './study-record.ts'
import { createVideoPages } from './video-page.ts'
import { findWatchedPositions } from './learning.repository.ts'

/** What the learning module is built from: the context its use cases share (context.ts), and two lifetimes. */
export type LearningDeps = Omit<LearningContext, 'decisions' | 'decisionFor'> & {
  /** How long a canWatch answer clamps progress saves without being asked again; 60 s by default. */
  decisionTtlMs?: number
  /** How long a body token's member and session are remembered; 60 s by default (liveness is checked on each save). */
  progressAuthTtlMs?: number
  /** How long a video's player popups are cached (operators' changes drop them at once); 60 s by default. */
  popupCacheMs?: number
}

/**
 * The player, progress saves, notes, popups and study lists (spec 7), one file per use case: video-page.ts,
 * progress.ts, notes.ts, popups.ts, study-record.ts (history, purchased list), course-study.ts (course bar,
 * system courses). Access questions go to the access module; course and video data to the catalogue's door.
 */
export function createLearningService(deps: LearningDeps) {
  const { db, now } = deps
  const decisions = new DecisionCache({ ttlMs: deps.decisionTtlMs ?? 60_000, now })
  const progressAuth = createProgressAuth({ db, now, ttlMs: deps.progressAuthTtlMs })
  const ctx: LearningContext = {
    db,
    now,
    courseDetail: deps.courseDetail,
    play: deps.play,
    canWatch: deps.canWatch,
    facts: deps.facts,
    vipMembership: deps.vipMembership,
    decisions,
    decisionFor: createDecisionLookup({ canWatch: deps.canWatch, facts: deps.facts, decisions }),
  }

  return {
    /** The member behind a progress save's body token (sendBeacon and the player's saves), briefly cached. */
    progressMember: (token: string) => progressAuth.resolve(token),
    /** Drops a body token whose session a save found dead. */
    forgetProgressToken: (token: string) => progressAuth.forget(token),
    ...createVideoPages(ctx),
    ...createProgressSaves(ctx),
    ...createStudyRecord(ctx),
    ...createNotes(ctx),
    ...createPopups(ctx, deps.popupCacheMs),
    ...createCourseStudy(ctx),
  }
}

export type LearningService = ReturnType<typeof createLearningService>

/**
 * The courses of the videos the member watched most recently (the last `limit` progress saves' videos; a course
 * may repeat), newest first: what recommendations start from (server/modules/catalogue/recommend.ts).
 */
export function recentlyWatchedCourseIds(db: DbOrTx, memberId: number, limit: number): Promise<number[]> {
  return findRecentlyWatchedCourseIds(db, memberId, limit)
}

// ---- Watched share for the refund rule (server/modules/refunds) ---------------------------------------------

/**
 * How much of these videos (the videos of the courses an order bought, with their lengths) the member has
 * watched, in percent of their total length, rounded down: a finished video counts whole, another up to its saved
 * position. 0 when they have no length.
 */
export async function watchedPercent(
  db: DbOrTx,
  memberId: number,
  videos: readonly { id: number; courseId: number; durationSeconds: number }[],
): Promise<number> {
  const total = videos.reduce((sum, v) => sum + v.durationSeconds, 0)
  if (total === 0) return 0
  const seconds = new Map(videos.map((v) => [v.id, v.durationSeconds]))
  const rows = await findWatchedPositions(db, memberId, [...new Set(videos.map((v) => v.courseId))])
  const watched = rows.reduce((sum, r) => {
    const length = seconds.get(r.videoId)
    if (length === undefined) return sum
    return sum + (r.finished ? length : Math.min(r.position, length))
  }, 0)
  return Math.min(100, Math.floor((watched * 100) / total))
}

/** Learners and lessons watched in a period (operators' dashboard). */
export { watchingFigures } from './figures.repository.ts'

/** A member's progress and notes: data export and account deletion (issue 10 §5). */
export {
  deleteMemberLearning as eraseMemberLearning,
  selectMemberLearning as learningForExport,
} from './learning-privacy.repository.ts'

/** The player's popups in the operators' console (each write drops the players' cached popups). */
export { createPopupAdmin, type PopupAdmin } from './popups-admin.ts'
