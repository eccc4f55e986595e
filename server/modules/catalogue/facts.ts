import { LRUCache } from 'lru-cache'
import type { DbOrTx } from '#server/db/database.ts'
import { DropsWhileLoading, invalidate, onInvalidation } from '#server/http/public-cache.ts'
import {
  findCourseCardsWithVideoCount,
  findCourseFacts,
  findFirstLessonId,
  findLessonFacts,
  findLivePullUrl,
  findSystemCourseIds,
  fitLessonsToClip,
  listLessonFreeFlags,
  updateLessonDuration,
  type CourseFacts,
} from './facts.repository.ts'

// Facts of courses and videos for other modules: access, learning and media read these tables only through the
// functions here (exported by catalogue.service.ts, the door), batched by id.

export type { CourseFacts }

/** A video (lesson) with what decides access to it, and its course's facts. */
export interface LessonFacts {
  id: number
  courseId: number
  title: string
  durationSeconds: number
  isFree: boolean
  /** Seconds anyone may preview; 0: no preview. */
  freeSeconds: number
  course: CourseFacts
}

/** The facts of these courses, by id (unknown ids are absent). Uncached: one statement. */
export async function courseAccessFacts(db: DbOrTx, courseIds: readonly number[]): Promise<Map<number, CourseFacts>> {
  return new Map((await findCourseFacts(db, courseIds)).map((c) => [c.id, c]))
}

/** The facts of these videos with their courses', by video id (unknown ids are absent). Uncached: one statement. */
export async function lessonAccessFacts(db: DbOrTx, videoIds: readonly number[]): Promise<Map<number, LessonFacts>> {
  return new Map((await findLessonFacts(db, videoIds)).map((v) => [v.id, v]))
}

/** A published course as a card row (`toCourseCard`) with its number of videos. */
type CardWithVideoCount = Awaited<ReturnType<typeof findCourseCardsWithVideoCount>>[number]

/** Course and lesson facts behind a short-lived LRU (see `createCatalogueFacts`). */
export interface CatalogueFacts {
  lessons(videoIds: readonly number[]): Promise<Map<number, LessonFacts>>
  courses(courseIds: readonly number[]): Promise<Map<number, CourseFacts>>
  /** Published courses as cards with their number of videos, by id (unpublished and unknown ids are absent). */
  cards(courseIds: readonly number[]): Promise<Map<number, CardWithVideoCount>>
}

/** How long cached course and lesson facts are trusted: an operator's edit counts within this time. */
const FACTS_CACHE_MS = 3_000

/** A cached "no such published course" (see `batchLru`). */
const ABSENT = Symbol('absent')

/**
 * A size-bounded LRU of rows by id with a short time to live, loading every miss of a batch in one call. Entries
 * leave one by one (least recently used first, when their time is up, or when a write names their course in any
 * process: server/http/public-cache.ts); nothing clears the whole cache but a lost invalidation connection. Unknown
 * ids are not remembered (unless `absentByCourse`), so a row created a moment later is found at once. `ttlMs` ≤ 0
 * turns caching off.
 */
function batchLru<V extends object>(
  load: (ids: number[]) => Promise<Map<number, V>>,
  options: { ttlMs: number; max: number },
  /** The course ids a value shows: a write naming `course:<id>` for one of them drops it. */
  coursesOf: (value: V) => number[],
  /**
   * Ids are course ids, and an id `load` leaves out (a course not published) is remembered as absent too, until its
   * time is up or a write names the course (which publishing it, or creating it, does).
   */
  absentByCourse = false,
) {
  const cache =
    options.ttlMs > 0 ? new LRUCache<number, V | typeof ABSENT>({ max: options.max, ttl: options.ttlMs }) : null
  const shows = (id: number, value: V | typeof ABSENT) => (value === ABSENT ? [id] : coursesOf(value))
  // The courses written while loads run ('all' after a lost connection): a load may have read its rows before such a
  // write committed, so what it read of them is answered but not kept.
  const writes = new DropsWhileLoading<Set<number> | 'all'>()
  if (cache)
    onInvalidation(
      (tags) => {
        const changed = new Set(tags.flatMap((t) => (t.startsWith('course:') ? [Number(t.slice(7))] : [])))
        if (changed.size === 0) return
        writes.heard(changed)
        for (const [id, value] of cache.entries()) if (shows(id, value).some((c) => changed.has(c))) cache.delete(id)
      },
      () => {
        writes.heard('all')
        cache.clear()
      },
    )
  return async (ids: readonly number[]): Promise<Map<number, V>> => {
    const found = new Map<number, V>()
    const missing: number[] = []
    for (const id of new Set(ids)) {
      const hit = cache?.get(id)
      if (hit === ABSENT) continue
      if (hit) found.set(id, hit)
      else missing.push(id)
    }
    if (missing.length === 0) return found
    const began = writes.begin()
    let loaded: Map<number, V>
    let since: (Set<number> | 'all')[]
    try {
      loaded = await load(missing)
    } finally {
      since = writes.end(began)
    }
    const keep = (id: number, value: V | typeof ABSENT) =>
      !since.some((w) => w === 'all' || shows(id, value).some((c) => w.has(c))) && cache?.set(id, value)
    for (const id of missing) {
      const value = loaded.get(id)
      if (value) {
        keep(id, value)
        found.set(id, value)
      } else if (absentByCourse) keep(id, ABSENT)
    }
    return found
  }
}

/**
 * `lessonAccessFacts`, `courseAccessFacts` and `courseCardsWithVideoCount` behind a size-bounded LRU (a few
 * seconds' time to live; `ttlMs: 0` turns it off), one per process: every player page, playlist, key, progress
 * save, purchased list (/ke1) and favourites list asks them, and they change rarely. Cached values are shared: treat them as
 * read-only.
 */
export function createCatalogueFacts(deps: { db: DbOrTx; ttlMs?: number; max?: number }): CatalogueFacts {
  const options = { ttlMs: deps.ttlMs ?? FACTS_CACHE_MS, max: deps.max ?? 20_000 }
  return {
    lessons: batchLru(
      (ids) => lessonAccessFacts(deps.db, ids),
      options,
      (v) => [v.courseId],
    ),
    courses: batchLru(
      (ids) => courseAccessFacts(deps.db, ids),
      options,
      (c) => [c.id],
    ),
    cards: batchLru(
      async (ids) => new Map((await findCourseCardsWithVideoCount(deps.db, ids)).map((c) => [c.id, c])),
      options,
      (c) => [c.id],
      // A member's purchased list names the unpublished courses they hold or started on every visit.
      true,
    ),
  }
}

/** Published courses of `ids` as card rows (`toCourseCard`) with their number of videos; unordered. */
export function courseCardsWithVideoCount(db: DbOrTx, ids: readonly number[]) {
  return findCourseCardsWithVideoCount(db, ids)
}

/** Published system courses whose id is in `ids` or that contain one of the courses `containing`, by id. */
export function publishedSystemCourseIds(db: DbOrTx, ids: readonly number[], containing: readonly number[]) {
  return findSystemCourseIds(db, ids, containing)
}

/** The first video of a course (by sort, then id), or null. */
export function firstLessonId(db: DbOrTx, courseId: number) {
  return findFirstLessonId(db, courseId)
}

/** The stream URL of a published live course; null when none is set or the course is not a published live one. */
export function livePullUrl(db: DbOrTx, courseId: number) {
  return findLivePullUrl(db, courseId)
}

/** Records a video's real length in seconds (when its transcoding finishes, inside that transaction). */
export async function setLessonDuration(db: DbOrTx, videoId: number, seconds: number) {
  const courseIds = await updateLessonDuration(db, videoId, seconds)
  // Inside the caller's transaction: other processes drop the course page when it commits.
  await invalidate(
    db,
    courseIds.map((id) => `course:${id}`),
  )
}

/** Every video's free flags and its course's (the demo gives free lessons, previews and the rest other clips). */
export function lessonFreeFlags(db: DbOrTx) {
  return listLessonFreeFlags(db)
}

/** Demo media: videos take a clip's length, and a preview ends halfway through the clip at the latest. */
export async function fitLessonsToDemoClip(db: DbOrTx, videoIds: readonly number[], clipSeconds: number) {
  const courseIds = await fitLessonsToClip(db, videoIds, clipSeconds)
  await invalidate(
    db,
    courseIds.map((id) => `course:${id}`),
  )
}
