import { eq } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { courses, systemCourseItems, videos } from '#server/db/schema/catalogue.ts'
import { dropTagged } from '#server/http/public-cache.ts'
import { useTestDatabase } from '#tests/support/database.ts'
import { makeCourse, makeVideo } from '#tests/support/media-fixtures.ts'
import {
  courseCardsWithVideoCount,
  createCatalogueFacts,
  firstLessonId,
  fitLessonsToDemoClip,
  lessonAccessFacts,
  livePullUrl,
  publishedSystemCourseIds,
  setLessonDuration,
} from './catalogue.service.ts'

describe('catalogue facts for other modules', () => {
  const database = useTestDatabase()

  it('gives a lesson with its course and the system courses containing that course', async () => {
    const { db } = await database()
    const part = await makeCourse(db, { vipFree: true, status: 'hidden' })
    const sysA = await makeCourse(db, { type: 'system' })
    const sysB = await makeCourse(db, { type: 'system' })
    await db.insert(systemCourseItems).values([
      { systemCourseId: sysB, courseId: part },
      { systemCourseId: sysA, courseId: part },
    ])
    const v = await makeVideo(db, part, { title: '第 2 课', freeSeconds: 15, durationSeconds: 90 })
    const facts = await lessonAccessFacts(db, [v, 1_999_999])
    expect([...facts.keys()]).toEqual([v])
    expect(facts.get(v)).toEqual({
      id: v,
      courseId: part,
      title: '第 2 课',
      durationSeconds: 90,
      isFree: false,
      freeSeconds: 15,
      course: {
        id: part,
        type: 'series',
        status: 'hidden',
        title: '测试课程',
        coverUrl: '/demo/cover.webp',
        isFree: false,
        vipFree: true,
        systemCourseIds: [sysA, sysB].sort((a, b) => a - b),
      },
    })
  })

  it('caches facts for a short time, loads a batch of misses at once, and never remembers unknown ids', async () => {
    const d = await database()
    const c = await makeCourse(d.db)
    const [a, b] = [await makeVideo(d.db, c), await makeVideo(d.db, c)]
    const facts = createCatalogueFacts({ db: d.db, ttlMs: 60_000, max: 10 })
    const spy = vi.spyOn(d.pool, 'query')
    try {
      expect([...(await facts.lessons([a, b, 1_999_999])).keys()].sort()).toEqual([a, b].sort())
      expect(spy.mock.calls.length).toBe(1)
      await facts.lessons([a, b])
      expect(spy.mock.calls.length).toBe(1)
      await facts.lessons([a, 1_999_999])
      expect(spy.mock.calls.length).toBe(2)
      // Turned off: every call reads.
      const uncached = createCatalogueFacts({ db: d.db, ttlMs: 0 })
      await uncached.courses([c])
      await uncached.courses([c])
      expect(spy.mock.calls.length).toBe(4)
    } finally {
      spy.mockRestore()
    }
  })

  it('remembers a course that is not published as absent from the cards until a write names it', async () => {
    const d = await database()
    const hidden = await makeCourse(d.db, { status: 'hidden' })
    const facts = createCatalogueFacts({ db: d.db, ttlMs: 60_000, max: 10 })
    const spy = vi.spyOn(d.pool, 'query')
    try {
      expect([...(await facts.cards([hidden])).keys()]).toEqual([])
      expect(spy.mock.calls.length).toBe(1)
      // Asked again (a member's purchased list on every visit): no statement.
      expect([...(await facts.cards([hidden])).keys()]).toEqual([])
      expect(spy.mock.calls.length).toBe(1)
      // Published: the write names the course, and the next read finds it.
      await d.db.update(courses).set({ status: 'published' }).where(eq(courses.id, hidden))
      dropTagged([`course:${hidden}`])
      expect([...(await facts.cards([hidden])).keys()]).toEqual([hidden])
      expect(spy.mock.calls.length).toBe(3)
    } finally {
      spy.mockRestore()
    }
  })

  it('does not keep what a batch read of a course a write named while it was loading', async () => {
    const d = await database()
    const [c, other] = [await makeCourse(d.db), await makeCourse(d.db)]
    const facts = createCatalogueFacts({ db: d.db, ttlMs: 60_000, max: 10 })
    const spy = vi.spyOn(d.pool, 'query')
    try {
      // The write is heard while the statement runs: its answer may predate the write.
      const loading = facts.cards([c, other])
      dropTagged([`course:${c}`])
      expect([...(await loading).keys()].sort()).toEqual([c, other].sort())
      expect(spy.mock.calls.length).toBe(1)
      await facts.cards([c, other])
      expect(spy.mock.calls.length).toBe(2)
      // Read again with nothing written meanwhile: both kept.
      await facts.cards([c, other])
      expect(spy.mock.calls.length).toBe(2)
    } finally {
      spy.mockRestore()
    }
  })

  it('keeps at most `max` entries, dropping the least recently used', async () => {
    const d = await database()
    const ids = [await makeCourse(d.db), await makeCourse(d.db), await makeCourse(d.db)]
    const facts = createCatalogueFacts({ db: d.db, ttlMs: 60_000, max: 2 })
    await facts.courses([ids[0]!])
    await facts.courses([ids[1]!])
    await facts.courses([ids[0]!])
    await facts.courses([ids[2]!])
    const spy = vi.spyOn(d.pool, 'query')
    try {
      await facts.courses([ids[0]!, ids[2]!])
      expect(spy.mock.calls.length).toBe(0)
      await facts.courses([ids[1]!])
      expect(spy.mock.calls.length).toBe(1)
    } finally {
      spy.mockRestore()
    }
  })

  it('lists published course cards with their video counts, and published system courses joined', async () => {
    const { db } = await database()
    const shown = await makeCourse(db, { title: '可见' })
    const hidden = await makeCourse(db, { status: 'hidden' })
    await makeVideo(db, shown)
    await makeVideo(db, shown)
    const cards = await courseCardsWithVideoCount(db, [shown, hidden])
    expect(cards.map((r) => [r.id, r.title, r.videoCount])).toEqual([[shown, '可见', 2]])

    const sys = await makeCourse(db, { type: 'system' })
    const hiddenSys = await makeCourse(db, { type: 'system', status: 'hidden' })
    const lonely = await makeCourse(db, { type: 'system' })
    await db.insert(systemCourseItems).values([
      { systemCourseId: sys, courseId: shown },
      { systemCourseId: hiddenSys, courseId: shown },
    ])
    expect(await publishedSystemCourseIds(db, [], [shown])).toEqual([sys])
    expect(await publishedSystemCourseIds(db, [lonely, hiddenSys, shown], [])).toEqual([lonely])
    expect(await publishedSystemCourseIds(db, [], [])).toEqual([])
  })

  it('finds the first lesson and a live stream, and writes lengths', async () => {
    const { db } = await database()
    const c = await makeCourse(db)
    expect(await firstLessonId(db, c)).toBeNull()
    const second = await makeVideo(db, c, { sort: 2 })
    const first = await makeVideo(db, c, { sort: 1, freeSeconds: 40 })
    expect(await firstLessonId(db, c)).toBe(first)

    const live = await makeCourse(db, { type: 'live', livePullUrl: 'https://live.example/a.m3u8' })
    expect(await livePullUrl(db, live)).toBe('https://live.example/a.m3u8')
    expect(await livePullUrl(db, c)).toBeNull()
    await db.update(courses).set({ status: 'hidden' }).where(eq(courses.id, live))
    expect(await livePullUrl(db, live)).toBeNull()

    await setLessonDuration(db, second, 123)
    await fitLessonsToDemoClip(db, [first], 30.6)
    const rows = await db.select().from(videos).where(eq(videos.courseId, c))
    const byId = new Map(rows.map((r) => [r.id, r]))
    expect(byId.get(second)).toMatchObject({ durationSeconds: 123, freeSeconds: 0 })
    expect(byId.get(first)).toMatchObject({ durationSeconds: 31, freeSeconds: 15 })
  })
})
