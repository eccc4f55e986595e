import type { DbOrTx } from '#server/db/database.ts'
import {
  courseCardsWithVideoCount,
  toCourseCard,
  type CatalogueFacts,
} from '#server/modules/catalogue/catalogue.service.ts'
import { listCourseProgress, type CourseProgressRow } from './learning.repository.ts'
import type { CourseProgress } from './learning.schema.ts'

type CardRow = Awaited<ReturnType<typeof courseCardsWithVideoCount>>[number]

/** A published course as a card row, with the member's progress in it (undefined: not started). */
export interface CourseWithProgress {
  card: CardRow
  progress: CourseProgressRow | undefined
}

/**
 * Published courses with the member's progress in each: the courses `courseIds`. Two statements side by side: the
 * member's progress in them (learning), and their cards with their number of videos (the catalogue's door).
 * Unordered.
 */
export async function coursesWithProgress(
  db: DbOrTx,
  memberId: number,
  courseIds: readonly number[],
): Promise<CourseWithProgress[]> {
  const [progress, cards] = await Promise.all([
    listCourseProgress(db, memberId, courseIds),
    courseCardsWithVideoCount(db, courseIds),
  ])
  return joinCards(cards, courseIds, progress, { free: false, vipFree: false })
}

/**
 * As `coursesWithProgress` with the member's progress in every course they started already read (a caller that
 * reads it alongside what decides `courseIds`, saving a round trip), the cards from the catalogue's cached facts:
 * no statement for the cards held there, one for the rest.
 */
export async function cardsWithProgress(
  facts: Pick<CatalogueFacts, 'cards'>,
  courseIds: readonly number[],
  progress: CourseProgressRow[],
  started: { free: boolean; vipFree: boolean },
): Promise<CourseWithProgress[]> {
  const cards = await facts.cards([...courseIds, ...progress.map((p) => p.courseId)])
  return joinCards([...cards.values()], courseIds, progress, started)
}

function joinCards(
  cards: CardRow[],
  courseIds: readonly number[],
  progress: CourseProgressRow[],
  started: { free: boolean; vipFree: boolean },
): CourseWithProgress[] {
  const byCourse = new Map(progress.map((p) => [p.courseId, p]))
  const wanted = new Set(courseIds)
  return cards
    .filter(
      (c) => wanted.has(c.id) || (byCourse.has(c.id) && ((started.free && c.isFree) || (started.vipFree && c.vipFree))),
    )
    .map((card) => ({ card, progress: byCourse.get(card.id) }))
}

/**
 * The member's progress in a course of `videoCount` videos, as the API shows it: videos started and finished, and
 * the share watched (a partly watched video counts its share), in percent rounded down.
 */
export function progressIn(videoCount: number, progress: CourseProgressRow | undefined): CourseProgress {
  const finished = Math.min(progress?.finishedCount ?? 0, videoCount)
  const watched = Math.min(progress?.watchedShare ?? 0, videoCount)
  return {
    video_count: videoCount,
    finished_count: finished,
    started_count: Math.min(progress?.startedCount ?? 0, videoCount),
    // Rounded down: 99.6% watched is not "100%" until the last lesson is finished.
    percent: videoCount > 0 ? Math.floor((watched * 100) / videoCount + 1e-9) : 0,
    last_vid: progress?.lastVid ?? null,
    last_position: progress?.lastPosition ?? null,
    last_studied_at: progress?.lastAt.toISOString() ?? null,
  }
}

export const toCourseProgress = ({ card, progress }: CourseWithProgress) => progressIn(card.videoCount, progress)

export const summaryCard = (row: CourseWithProgress) => toCourseCard(row.card)
