import { beforeAll, describe, expect, it } from 'vitest'
import { teachers } from '#server/db/schema/catalogue.ts'
import { seedIfEmpty } from '#server/db/seed.ts'
import { clearAllCaches } from '#server/http/public-cache.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import type { FollowState, TeacherWithFollow } from './follows.schema.ts'
import { eraseMemberFollows } from './follows.service.ts'

interface Envelope<T> {
  code: number
  msg: string
  data: T
}

describe('follows API', () => {
  const t = useTestApp()
  let teacherIds: number[] = []

  beforeAll(async () => {
    await seedIfEmpty(t().database.db, { info: () => {} })
    teacherIds = (await t().database.db.select({ id: teachers.id }).from(teachers).orderBy(teachers.id)).map(
      (r) => r.id,
    )
    clearAllCaches()
  })

  async function follow(teacherId: unknown, headers: Record<string, string> = {}) {
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/follow',
      payload: { teacher_id: teacherId },
      headers,
    })
    return { status: res.statusCode, body: res.json<Envelope<FollowState>>() }
  }
  async function teacher(id: number, headers: Record<string, string> = {}) {
    const res = await t().app.inject({ method: 'GET', url: `/api/teacher?id=${id}`, headers })
    return res.json<Envelope<TeacherWithFollow>>()
  }

  describe('POST /api/follow', () => {
    it('follows a teacher, counts the followers, and stops following on the second call', async () => {
      const a = await makeMember(t().database.db)
      const b = await makeMember(t().database.db)
      const id = teacherIds[0]!
      const before = (await teacher(id)).data.follower_count
      expect((await follow(id, a.headers)).body).toMatchObject({
        code: 200,
        msg: '已关注',
        data: { teacher_id: id, followed: true, follower_count: before + 1 },
      })
      expect((await follow(String(id), b.headers)).body.data).toEqual({
        teacher_id: id,
        followed: true,
        follower_count: before + 2,
      })
      expect((await follow(id, a.headers)).body).toMatchObject({
        msg: '已取消关注',
        data: { followed: false, follower_count: before + 1 },
      })
    })

    it('counts every way a follow goes: a deleted account’s follows leave the count, a demo teacher keeps a base', async () => {
      const db = t().database.db
      const id = teacherIds[2]!
      const before = (await teacher(id)).data.follower_count
      // The demo teachers bring followers from before the site, in line with their courses' learners.
      expect(before).toBeGreaterThan(100)
      const m = await makeMember(db)
      await follow(id, m.headers)
      await follow(teacherIds[3]!, m.headers)
      expect((await teacher(id)).data.follower_count).toBe(before + 1)
      await eraseMemberFollows(db, m.id)
      expect((await teacher(id)).data.follower_count).toBe(before)
    })

    it('needs a login, a real teacher and a valid id', async () => {
      const m = await makeMember(t().database.db)
      expect((await follow(teacherIds[0])).body.code).toBe(301)
      expect((await follow(999_999, m.headers)).body).toMatchObject({ code: 404, msg: '讲师不存在' })
      for (const bad of [undefined, 'x', 0, -1]) {
        const res = await follow(bad, m.headers)
        expect(res.status).toBe(400)
        expect(res.body.data).toEqual({ field: 'teacher_id' })
      }
    })
  })

  describe('GET /api/teacher', () => {
    it('tells a signed-in member whether they follow, and anonymous visitors false', async () => {
      const m = await makeMember(t().database.db)
      const id = teacherIds[1]!
      const before = (await teacher(id)).data.follower_count
      await follow(id, m.headers)
      const mine = await teacher(id, m.headers)
      expect(mine).toMatchObject({ code: 200, data: { id, followed: true, follower_count: before + 1 } })
      expect(mine.data.courses.length).toBeGreaterThan(0)
      expect((await teacher(id)).data).toMatchObject({ followed: false, follower_count: before + 1 })
      const other = await makeMember(t().database.db)
      expect((await teacher(id, other.headers)).data.followed).toBe(false)
    })

    it('still answers 404 for an unknown teacher', async () => {
      expect((await teacher(999_999)).code).toBe(404)
    })
  })
})
