import type { Db } from '#server/db/database.ts'
import type { WatchDecision } from '#server/modules/access/access.service.ts'
import type { CatalogueFacts } from '#server/modules/catalogue/catalogue.service.ts'
import type { CourseDetail } from '#shared/api/catalogue.ts'
import type { DecisionCache, DecisionEntry } from './decision-cache.ts'

interface PlayResult {
  master_url: string
  expires_at: number
  until_second: number | null
  reason: 'free_course' | 'free_video' | 'entitled' | 'preview'
  poster_url: string | null
}

/** What the learning use cases are built from (learning.service.ts fills it from its deps). */
export interface LearningContext {
  db: Db
  now: () => Date
  /** The course page data, cached briefly by the catalogue (404 AppError for unknown or unpublished courses). */
  courseDetail: (id: number) => Promise<CourseDetail>
  /** A signed HLS URL (server/modules/media/playback.service.ts); `known`: the decision just asked for. */
  play: (memberId: number | null, videoId: number, known?: WatchDecision) => Promise<PlayResult>
  /** The access function's player view (server/modules/access). */
  canWatch: (memberId: number | null, videoId: number) => Promise<WatchDecision>
  /** The catalogue's cached facts: a video's course, title and length; courses' cards (the purchased list). */
  facts: Pick<CatalogueFacts, 'lessons' | 'cards'>
  /** The member's VIP membership (server/modules/vip). */
  vipMembership: (memberId: number) => Promise<{ active: boolean; expires_at: string } | null>
  decisions: DecisionCache
  /** The (cached) decision for a member and video, with the lesson's course and length for a progress save. */
  decisionFor: (memberId: number, videoId: number) => Promise<DecisionEntry>
}
