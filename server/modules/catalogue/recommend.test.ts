import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { categories, courses, systemCourseItems, videos } from '#server/db/schema/catalogue.ts'
import { entitlements } from '#server/db/schema/access.ts'
import { seedIfEmpty } from '#server/db/seed.ts'
import { clearAllCaches } from '#server/http/ttl-cache.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import type { CourseCardList } from './recommend.schema.ts'

interface Envelope<T> {
  code: number
  msg: string
  data: T
}

interface CourseFacts {
  id: number
  categoryId: number
  parentId: number | null
  studentCount: number
}

describe('recommendations API', () => {
  const t = useTestApp()
  let all: CourseFacts[] = []

  beforeAll(async () => {
    const db = t().database.db
    await seedIfEmpty(db, { info: () => {} })
    all = await db
      .select({
        id: courses.id,
        categoryId: courses.categoryId,
        parentId: categories.parentId,
        studentCount: courses.studentCount,
      })
      .from(courses)
      .innerJoin(categories, eq(categories.id, courses.categoryId))
      .where(eq(courses.status, 'published'))
    clearAllCaches()
  })

  async function get(url: string, headers: Record<string, string> = {}) {
    const res = await t().app.inject({ method: 'GET', url, headers })
    return res.json<Envelope<CourseCardList>>()
  }
  const byPopularity = (list: CourseFacts[]) => [...list].sort((a, b) => b.studentCount - a.studentCount || a.id - b.id)
  /** Categories with at least three courses, so "same category" has something to show. */
  const busyCategory = () => {
    const counts = new Map<number, CourseFacts[]>()
    for (const c of all) counts.set(c.categoryId, [...(counts.get(c.categoryId) ?? []), c])
    return [...counts.values()].find((l) => l.length >= 3)!
  }

  describe('GET /api/foryou and /api/center/recommend', () => {
    it('shows anonymous visitors the most popular courses', async () => {
      for (const url of ['/api/foryou', '/api/center/recommend']) {
        const body = await get(`${url}?limit=5`)
        expect(body.code).toBe(200)
        expect(body.data.personalised).toBe(false)
        expect(body.data.list.map((c) => c.id)).toEqual(
          byPopularity(all)
            .slice(0, 5)
            .map((c) => c.id),
        )
      }
    })

    it('starts from what the member watched: same category first, not the watched course, not owned courses', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const [watched, owned, ...rest] = byPopularity(busyCategory())
      const [video] = await db.select({ id: videos.id }).from(videos).where(eq(videos.courseId, watched!.id)).limit(1)
      const now = new Date()
      await db.execute(sql`insert into study_progress (member_id, video_id, course_id, position, duration, created_at, updated_at)
        values (${m.id}, ${video!.id}, ${watched!.id}, 30, 600, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)`)
      await db.insert(entitlements).values({ memberId: m.id, courseId: owned!.id, source: 'admin', grantedAt: now })
      const body = await get('/api/foryou?limit=30', m.headers)
      expect(body.data.personalised).toBe(true)
      const ids = body.data.list.map((c) => c.id)
      expect(ids).not.toContain(watched!.id)
      expect(ids).not.toContain(owned!.id)
      expect(ids.slice(0, rest.length)).toEqual(rest.map((c) => c.id))
      // Then the same top category, then popular courses elsewhere.
      const top = watched!.parentId
      const next = body.data.list.slice(rest.length).map((c) => all.find((a) => a.id === c.id)!)
      const firstElsewhere = next.findIndex((c) => c.parentId !== top)
      expect(next.slice(firstElsewhere).every((c) => c.parentId !== top)).toBe(true)
    })

    it('reads on past the owned courses when they fill more than the first read', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const popular = byPopularity(all)
      // Nothing watched or favourited: the list is the popular courses, less the 12 most popular the member owns
      // (and what owned system courses contain), more than one read with its slack of 10 covers.
      const owned = popular.slice(0, 12).map((c) => c.id)
      const now = new Date()
      await db
        .insert(entitlements)
        .values(owned.map((courseId) => ({ memberId: m.id, courseId, source: 'admin' as const, grantedAt: now })))
      const items = await db.select().from(systemCourseItems)
      const ownedAll = new Set([
        ...owned,
        ...items.filter((i) => owned.includes(i.systemCourseId)).map((i) => i.courseId),
      ])
      const body = await get('/api/foryou?limit=3', m.headers)
      expect(body.data.personalised).toBe(false)
      expect(body.data.list.map((c) => c.id)).toEqual(
        popular
          .filter((c) => !ownedAll.has(c.id))
          .slice(0, 3)
          .map((c) => c.id),
      )
    })

    it('rejects a bad limit', async () => {
      const res = await t().app.inject({ method: 'GET', url: '/api/foryou?limit=500' })
      expect(res.statusCode).toBe(400)
    })
  })

  describe('GET /api/fav/recommend', () => {
    it('recommends courses in the categories of the member’s favourites, never a favourite', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const [fav, ...same] = byPopularity(busyCategory())
      await t().app.inject({
        method: 'POST',
        url: '/api/course/fav',
        payload: { course_id: fav!.id },
        headers: m.headers,
      })
      const body = await get('/api/fav/recommend?limit=10', m.headers)
      expect(body.data.personalised).toBe(true)
      const ids = body.data.list.map((c) => c.id)
      expect(ids).not.toContain(fav!.id)
      expect(ids.slice(0, same.length)).toEqual(same.map((c) => c.id))
    })

    it('falls back to popular courses without favourites or a login', async () => {
      const m = await makeMember(t().database.db)
      const mine = await get('/api/fav/recommend?limit=3', m.headers)
      expect(mine.data).toEqual({ personalised: false, list: expect.any(Array) as unknown[] })
      expect(mine.data.list.map((c) => c.id)).toEqual(
        byPopularity(all)
          .slice(0, 3)
          .map((c) => c.id),
      )
      expect((await get('/api/fav/recommend?limit=3')).data.list.map((c) => c.id)).toEqual(
        byPopularity(all)
          .slice(0, 3)
          .map((c) => c.id),
      )
    })
  })
})
