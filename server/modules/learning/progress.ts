import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { DecisionCache, DecisionEntry } from './decision-cache.ts'
import type { LearningContext } from './context.ts'
import { sessionProblem } from '#server/modules/sessions/session.service.ts'
import { upsertProgress } from './learning.repository.ts'
import type { PlayDataResult } from './learning.schema.ts'
import { refuse } from './views.ts'

/**
 * The (cached) decision for a member and video, with the video's course and length: a progress save's only
 * look-ups, and none at all while the entry the video page left is fresh.
 */
export function createDecisionLookup(deps: Pick<LearningContext, 'canWatch' | 'facts'> & { decisions: DecisionCache }) {
  return async (memberId: number, videoId: number): Promise<DecisionEntry> => {
    const cached = deps.decisions.get(memberId, videoId)
    if (cached) return cached
    const decision = await deps.canWatch(memberId, videoId)
    // The decision just read the lesson's facts through the same cache, so this costs no query.
    const lesson = decision.reason === 'not_found' ? undefined : (await deps.facts.lessons([videoId])).get(videoId)
    const entry: DecisionEntry = {
      decision,
      lesson: lesson ? { courseId: lesson.courseId, durationSeconds: lesson.durationSeconds } : null,
    }
    deps.decisions.set(memberId, videoId, entry)
    return entry
  }
}

/** Who saves: the member and the session the request came with (the save re-checks it in its statement). */
export interface ProgressSaver {
  memberId: number
  sessionId: number
}

/** Which player page view sent a save, and its number there (learning.schema.ts, saveOrder). */
interface SaveOrder {
  view?: number
  seq?: number
}

/** Progress saves (POST /update_play_data and /video/updateFreeData). */
export function createProgressSaves(ctx: LearningContext) {
  const { db, now } = ctx

  async function saveProgress(
    { memberId, sessionId }: ProgressSaver,
    vid: number,
    position: number,
    clientDuration: number | null,
    order: SaveOrder,
  ): Promise<PlayDataResult> {
    const { decision, lesson } = await ctx.decisionFor(memberId, vid)
    if (!decision.allowed) refuse(decision)
    const row = lesson
      ? await upsertProgress(db, {
          memberId,
          videoId: vid,
          courseId: lesson.courseId,
          videoDuration: lesson.durationSeconds,
          position,
          clientDuration,
          limit: decision.until_second,
          now: now(),
          sessionId,
          order: order.view !== undefined && order.seq !== undefined ? { view: order.view, seq: order.seq } : undefined,
        })
      : null
    if (row === 'session_gone') {
      // Rare (a save racing a logout, or a remembered body token): one more look to tell 301 from 504.
      const problem = await sessionProblem(db, sessionId, now())
      throw new AppError(problem === 'expired' ? Codes.SessionExpired : Codes.NotLoggedIn)
    }
    if (!row) {
      ctx.decisions.delete(memberId, vid)
      throw new AppError(Codes.NotFound, '视频不存在')
    }
    return {
      vid,
      position: row.position,
      duration: row.duration,
      finished: row.finishedAt !== null,
      until_second: decision.until_second,
      preview_ended: decision.until_second !== null && row.position >= decision.until_second,
    }
  }

  return {
    /**
     * Saves where a member is in a video (POST /update_play_data): clamped to the video's length and to the preview
     * canWatch allows; finished at 90%. One upsert after the (cached) entitlement answer.
     */
    savePlayData: (saver: ProgressSaver, body: { vid: number; position: number; duration?: number } & SaveOrder) =>
      saveProgress(saver, body.vid, body.position, body.duration ?? null, body),

    /**
     * Saves a position in a preview (POST /video/updateFreeData): the same record as a full view, so the preview's
     * progress carries over after buying; it never passes the preview end. Anonymous previews stay in the browser.
     */
    saveFreeData: (saver: ProgressSaver, body: { vid: number; position: number } & SaveOrder) =>
      saveProgress(saver, body.vid, body.position, null, body),
  }
}
