import { and, eq, inArray } from 'drizzle-orm'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { courses, systemCourseItems, videos } from '#server/db/schema/catalogue.ts'
import { favourites } from '#server/db/schema/favourites.ts'
import { entitlements, vipMemberships } from '#server/db/schema/access.ts'
import { seedIfEmpty } from '#server/db/seed.ts'
import { invalidate } from '#server/http/public-cache.ts'
import { signIn } from '#server/modules/auth/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import type { FavCalc, FavList } from './favourites.schema.ts'

interface Envelope<T> {
  code: number
  msg: string
  data: T
}

type Headers = Record<string, string>

describe('favourites API', () => {
  const t = useTestApp()
  let paid: { id: number; priceFen: number; originalPriceFen: number | null }[] = []
  let free: number
  let videoIds: number[] = []

  beforeAll(async () => {
    const db = t().database.db
    await seedIfEmpty(db, { info: () => {} })
    paid = await db
      .select({ id: courses.id, priceFen: courses.priceFen, originalPriceFen: courses.originalPriceFen })
      .from(courses)
      .where(eq(courses.isFree, false))
      .orderBy(courses.id)
      .limit(4)
    const [f] = await db.select({ id: courses.id }).from(courses).where(eq(courses.isFree, true)).limit(1)
    free = f!.id
    videoIds = (
      await db.select({ id: videos.id }).from(videos).where(eq(videos.courseId, paid[0]!.id)).orderBy(videos.id)
    ).map((v) => v.id)
  })

  async function post<T>(url: string, payload: unknown, headers: Headers = {}) {
    const res = await t().app.inject({ method: 'POST', url, payload: payload as object, headers })
    return { status: res.statusCode, body: res.json<Envelope<T>>() }
  }
  async function get<T>(url: string, headers: Headers = {}) {
    const res = await t().app.inject({ method: 'GET', url, headers })
    return { status: res.statusCode, body: res.json<Envelope<T>>() }
  }
  const member = () => makeMember(t().database.db)

  describe('POST /api/course/fav', () => {
    it('favourites a course, then un-favourites it on the second call', async () => {
      const m = await member()
      const course = paid[0]!.id
      const first = await post<{ course_id: number; favourited: boolean }>(
        '/api/course/fav',
        { course_id: course },
        m.headers,
      )
      expect(first.body).toMatchObject({ code: 200, msg: '已收藏', data: { course_id: course, favourited: true } })
      expect(
        (await get<{ favourited: boolean }>(`/api/course/fav?course_id=${course}`, m.headers)).body.data.favourited,
      ).toBe(true)
      const second = await post<{ favourited: boolean }>('/api/course/fav', { course_id: String(course) }, m.headers)
      expect(second.body).toMatchObject({ code: 200, msg: '已取消收藏', data: { favourited: false } })
      expect(
        (await get<{ favourited: boolean }>(`/api/course/fav?course_id=${course}`, m.headers)).body.data.favourited,
      ).toBe(false)
    })

    it('works with a token from the real SMS login', async () => {
      const { token } = await signIn(t().app)
      const res = await post<{ favourited: boolean }>(
        '/api/course/fav',
        { course_id: paid[1]!.id },
        { 'zxb-token': token },
      )
      expect(res.body.data.favourited).toBe(true)
    })

    it('keeps one row however many toggles race', async () => {
      const m = await member()
      const course = paid[2]!.id
      await Promise.all(Array.from({ length: 9 }, () => post('/api/course/fav', { course_id: course }, m.headers)))
      const rows = await t().database.db.select().from(favourites).where(eq(favourites.memberId, m.id))
      expect(rows.length).toBeLessThanOrEqual(1)
    })

    it('asks anonymous visitors to log in (301) and says no for them on GET', async () => {
      const res = await post('/api/course/fav', { course_id: paid[0]!.id })
      expect(res.body.code).toBe(301)
      const state = await get<{ favourited: boolean }>(`/api/course/fav?course_id=${paid[0]!.id}`)
      expect(state.body).toMatchObject({ code: 200, data: { favourited: false } })
    })

    it('answers 404 for an unknown or hidden course and 400 for a bad id', async () => {
      const m = await member()
      const unknown = await post('/api/course/fav', { course_id: 999_999 }, m.headers)
      expect(unknown).toMatchObject({ status: 404, body: { code: 404, msg: '课程不存在或已下架' } })
      const db = t().database.db
      await db.update(courses).set({ status: 'hidden' }).where(eq(courses.id, paid[3]!.id))
      try {
        expect((await post('/api/course/fav', { course_id: paid[3]!.id }, m.headers)).body.code).toBe(404)
        expect((await get(`/api/course/fav?course_id=${paid[3]!.id}`, m.headers)).body.code).toBe(404)
      } finally {
        await db.update(courses).set({ status: 'published' }).where(eq(courses.id, paid[3]!.id))
      }
      for (const bad of [
        {},
        { course_id: 'abc' },
        { course_id: 0 },
        { course_id: -3 },
        { course_id: 1.5 },
        { course_id: 3_000_000_000 },
      ]) {
        const res = await post('/api/course/fav', bad, m.headers)
        expect(res.status).toBe(400)
        expect(res.body.data).toEqual({ field: 'course_id' })
      }
    })

    it('lets a member un-favourite a course that was hidden since', async () => {
      const m = await member()
      const db = t().database.db
      await post('/api/course/fav', { course_id: paid[3]!.id }, m.headers)
      await db.update(courses).set({ status: 'hidden' }).where(eq(courses.id, paid[3]!.id))
      try {
        const res = await post<{ favourited: boolean }>('/api/course/fav', { course_id: paid[3]!.id }, m.headers)
        expect(res.body).toMatchObject({ code: 200, data: { favourited: false } })
      } finally {
        await db.update(courses).set({ status: 'published' }).where(eq(courses.id, paid[3]!.id))
      }
    })
  })

  describe('POST /api/video/fav', () => {
    it('toggles a video favourite and knows the state', async () => {
      const m = await member()
      const vid = videoIds[0]!
      expect(
        (await post<{ vid: number; favourited: boolean }>('/api/video/fav', { vid }, m.headers)).body.data,
      ).toEqual({ vid, favourited: true })
      expect((await get<{ favourited: boolean }>(`/api/video/fav?vid=${vid}`, m.headers)).body.data.favourited).toBe(
        true,
      )
      expect((await post<{ favourited: boolean }>('/api/video/fav', { vid }, m.headers)).body.data.favourited).toBe(
        false,
      )
    })

    it('answers 404 for an unknown video and 400 without vid', async () => {
      const m = await member()
      expect((await post('/api/video/fav', { vid: 1 }, m.headers)).body.code).toBe(404)
      expect((await post('/api/video/fav', {}, m.headers)).status).toBe(400)
    })
  })

  describe('GET /api/center/fav', () => {
    it('lists course favourites newest first with cards, paged, and only the member’s own', async () => {
      const m = await member()
      const other = await member()
      for (const c of paid) await post('/api/course/fav', { course_id: c.id }, m.headers)
      await post('/api/course/fav', { course_id: free }, other.headers)
      const first = await get<FavList>('/api/center/fav?type=course&limit=3', m.headers)
      expect(first.body.code).toBe(200)
      expect(first.body.data.list.map((i) => i.course.id)).toEqual(
        paid
          .slice(1)
          .reverse()
          .map((c) => c.id),
      )
      expect(first.body.data.list[0]).toMatchObject({
        video: null,
        course: { title: expect.any(String) as string, cover: expect.any(String) as string },
      })
      const second = await get<FavList>(
        `/api/center/fav?type=course&limit=3&cursor=${first.body.data.next_cursor}`,
        m.headers,
      )
      expect(second.body.data.list.map((i) => i.course.id)).toEqual([paid[0]!.id])
      expect(second.body.data.next_cursor).toBeNull()
    })

    it('leaves out favourites of hidden courses and still fills each page', async () => {
      const db = t().database.db
      const m = await member()
      for (const c of paid) await post('/api/course/fav', { course_id: c.id }, m.headers)
      // The two newest favourites are hidden: a page of 1 reads past them, and the cursor skips them too.
      const hide = async (status: 'hidden' | 'published') => {
        const ids = [paid[3]!.id, paid[2]!.id]
        await db.update(courses).set({ status }).where(inArray(courses.id, ids))
        // What an operator's edit does besides the write: the cached cards of those courses are dropped.
        await invalidate(
          db,
          ids.map((id) => `course:${id}`),
        )
      }
      await hide('hidden')
      try {
        const first = await get<FavList>('/api/center/fav?type=course&limit=1', m.headers)
        expect(first.body.data.list.map((i) => i.course.id)).toEqual([paid[1]!.id])
        const second = await get<FavList>(
          `/api/center/fav?type=course&limit=1&cursor=${first.body.data.next_cursor}`,
          m.headers,
        )
        expect(second.body.data.list.map((i) => i.course.id)).toEqual([paid[0]!.id])
        expect(second.body.data.next_cursor).toBeNull()
      } finally {
        await hide('published')
      }
    })

    it('reads the course cards from the catalogue’s cache: the page, with ownership, is the only statement', async () => {
      const m = await member()
      for (const c of paid.slice(0, 2)) await post('/api/course/fav', { course_id: c.id }, m.headers)
      const ids = async () =>
        (await get<FavList>('/api/center/fav?type=course', m.headers)).body.data.list.map((i) => i.course.id)
      expect(await ids()).toEqual([paid[1]!.id, paid[0]!.id])
      const spy = vi.spyOn(t().database.pool, 'query')
      try {
        expect(await ids()).toEqual([paid[1]!.id, paid[0]!.id])
        expect(spy.mock.calls.length).toBe(1)
      } finally {
        spy.mockRestore()
      }
    })

    it('says which favourited courses the member owns: bought, through a system course; not expired, revoked or by VIP', async () => {
      const db = t().database.db
      const m = await member()
      const [item] = await db
        .select({ system: systemCourseItems.systemCourseId, course: systemCourseItems.courseId })
        .from(systemCourseItems)
        .orderBy(systemCourseItems.systemCourseId, systemCourseItems.courseId)
        .limit(1)
      // The other courses are not part of that system course (owning it would own them).
      const inSystem = new Set(
        (
          await db
            .select({ course: systemCourseItems.courseId })
            .from(systemCourseItems)
            .where(eq(systemCourseItems.systemCourseId, item!.system))
        ).map((r) => r.course),
      )
      // Paid published courses with lessons, outside that system course.
      const withLessons = await db
        .selectDistinct({ id: videos.courseId, vipFree: courses.vipFree })
        .from(videos)
        .innerJoin(courses, eq(courses.id, videos.courseId))
        .where(and(eq(courses.isFree, false), eq(courses.status, 'published')))
        .orderBy(videos.courseId)
      const others = withLessons.map((c) => c.id).filter((id) => !inSystem.has(id) && id !== item!.system)
      expect(others.length).toBeGreaterThanOrEqual(3)
      const [viaSystem, bought, expired, revoked] = [item!.course, ...others]
      // A VIP-free course while the member's VIP runs: they may watch it, but they do not own it.
      const vipFree = withLessons.find((c) => c.vipFree && !inSystem.has(c.id) && !others.slice(0, 3).includes(c.id))!
      expect(vipFree).toBeDefined()
      const now = Date.now()
      const grant = (courseId: number, more: Partial<typeof entitlements.$inferInsert> = {}) =>
        db
          .insert(entitlements)
          .values({ memberId: m.id, courseId, source: 'admin', grantedAt: new Date(now - 60_000), ...more })
      await grant(item!.system)
      await grant(bought!)
      await grant(expired!, { expiresAt: new Date(now - 1000) })
      await grant(revoked!, { revokedAt: new Date(now - 1000) })
      await db
        .insert(vipMemberships)
        .values({ memberId: m.id, expiresAt: new Date(now + 86_400_000), updatedAt: new Date(now) })
      for (const id of [viaSystem, bought, expired, revoked, vipFree.id])
        await post('/api/course/fav', { course_id: id }, m.headers)
      const owns = (list: FavList['list']) => Object.fromEntries(list.map((i) => [i.course.id, i.owned]))
      const page = await get<FavList>('/api/center/fav?type=course', m.headers)
      expect(owns(page.body.data.list)).toEqual({
        [viaSystem]: true,
        [bought!]: true,
        [expired!]: false,
        [revoked!]: false,
        [vipFree.id]: false,
      })
      // Paged: the statement after a cursor says the same.
      const paged: FavList['list'] = []
      for (let cursor = ''; ;) {
        const next = await get<FavList>(`/api/center/fav?type=course&limit=2${cursor}`, m.headers)
        paged.push(...next.body.data.list)
        if (!next.body.data.next_cursor) break
        cursor = `&cursor=${next.body.data.next_cursor}`
      }
      expect(owns(paged)).toEqual(owns(page.body.data.list))
      // A lesson's favourite is owned with its course.
      const lessonOf = async (courseId: number) =>
        (await db.select({ id: videos.id }).from(videos).where(eq(videos.courseId, courseId)).orderBy(videos.id))[0]!.id
      const lessons = {
        [await lessonOf(bought!)]: true,
        [await lessonOf(viaSystem)]: true,
        [await lessonOf(expired!)]: false,
        [await lessonOf(revoked!)]: false,
        [await lessonOf(vipFree.id)]: false,
      }
      for (const vid of Object.keys(lessons)) await post('/api/video/fav', { vid: Number(vid) }, m.headers)
      const listed = await get<FavList>('/api/center/fav?type=video', m.headers)
      expect(Object.fromEntries(listed.body.data.list.map((i) => [i.video!.id, i.owned]))).toEqual(lessons)
    })

    it('lists video favourites with their course', async () => {
      const m = await member()
      await post('/api/video/fav', { vid: videoIds[1]! }, m.headers)
      const res = await get<FavList>('/api/center/fav?type=video', m.headers)
      expect(res.body.data.type).toBe('video')
      expect(res.body.data.list).toHaveLength(1)
      expect(res.body.data.list[0]).toMatchObject({ video: { id: videoIds[1] }, course: { id: paid[0]!.id } })
    })

    it('defaults to courses, refuses anonymous visitors and bad parameters', async () => {
      const m = await member()
      expect((await get<FavList>('/api/center/fav', m.headers)).body.data).toEqual({
        type: 'course',
        list: [],
        next_cursor: null,
      })
      expect((await get('/api/center/fav')).body.code).toBe(301)
      expect((await get('/api/center/fav?type=teacher', m.headers)).status).toBe(400)
      expect((await get('/api/center/fav?cursor=abc', m.headers)).status).toBe(400)
      expect((await get('/api/center/fav?limit=0', m.headers)).status).toBe(400)
    })
  })

  describe('GET /api/fav/calc', () => {
    it('counts and totals the favourited paid courses the member does not own', async () => {
      const m = await member()
      const db = t().database.db
      for (const c of [...paid, { id: free }]) await post('/api/course/fav', { course_id: c.id }, m.headers)
      // Owned: a live entitlement to paid[0]; an expired one to paid[1] does not count.
      await db.insert(entitlements).values([
        { memberId: m.id, courseId: paid[0]!.id, source: 'admin', grantedAt: new Date() },
        {
          memberId: m.id,
          courseId: paid[1]!.id,
          source: 'admin',
          grantedAt: new Date(Date.now() - 86_400_000),
          expiresAt: new Date(Date.now() - 1000),
        },
      ])
      const res = await get<FavCalc>('/api/fav/calc', m.headers)
      const buyable = paid.slice(1)
      expect(res.body.data).toEqual({
        count: 3,
        total_price_fen: buyable.reduce((n, c) => n + c.priceFen, 0),
        original_total_fen: buyable.reduce((n, c) => n + Math.max(c.originalPriceFen ?? c.priceFen, c.priceFen), 0),
        course_ids: buyable.map((c) => c.id).reverse(),
      })
    })

    it('is zero with no favourites and needs a login', async () => {
      const m = await member()
      expect((await get<FavCalc>('/api/fav/calc', m.headers)).body.data).toEqual({
        count: 0,
        total_price_fen: 0,
        original_total_fen: 0,
        course_ids: [],
      })
      expect((await get('/api/fav/calc')).body.code).toBe(301)
    })
  })

  describe('POST /api/fav/batchCancel', () => {
    it('removes the given course and video favourites of this member only', async () => {
      const m = await member()
      const other = await member()
      for (const c of paid) await post('/api/course/fav', { course_id: c.id }, m.headers)
      await post('/api/course/fav', { course_id: paid[0]!.id }, other.headers)
      await post('/api/video/fav', { vid: videoIds[0]! }, m.headers)
      const res = await post<{ cancelled_courses: number; cancelled_videos: number }>(
        '/api/fav/batchCancel',
        { course_ids: [paid[0]!.id, paid[1]!.id, paid[1]!.id, 999_999], vids: [videoIds[0]!] },
        m.headers,
      )
      expect(res.body).toMatchObject({ code: 200, data: { cancelled_courses: 2, cancelled_videos: 1 } })
      const db = t().database.db
      const left = await db
        .select({ courseId: favourites.courseId })
        .from(favourites)
        .where(eq(favourites.memberId, m.id))
      expect(left.map((r) => r.courseId).sort()).toEqual([paid[2]!.id, paid[3]!.id].sort())
      const others = await db
        .select()
        .from(favourites)
        .where(inArray(favourites.memberId, [other.id]))
      expect(others).toHaveLength(1)
    })

    it('rejects an empty request, more than 100 ids and bad ids with 400', async () => {
      const m = await member()
      const empty = await post('/api/fav/batchCancel', {}, m.headers)
      expect(empty.status).toBe(400)
      expect(empty.body.data).toEqual({ field: 'course_ids' })
      expect((await post('/api/fav/batchCancel', { course_ids: [], vids: [] }, m.headers)).status).toBe(400)
      expect(
        (await post('/api/fav/batchCancel', { course_ids: Array.from({ length: 101 }, (_, i) => i + 1) }, m.headers))
          .status,
      ).toBe(400)
      expect((await post('/api/fav/batchCancel', { vids: ['x'] }, m.headers)).status).toBe(400)
      expect((await post('/api/fav/batchCancel', { course_ids: [1] })).body.code).toBe(301)
    })
  })
})
