import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { systemCourseItems } from '#server/db/schema/catalogue.ts'
import { playerPopups } from '#server/db/schema/learning.ts'
import { clearAllCaches } from '#server/http/public-cache.ts'
import { extendVipMembership } from '#server/modules/access/access.service.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'
import { grant, makeLearningWorld, makeReady, type Envelope, type LearningWorld } from './testing.ts'

/**
 * What the member owns, as the screens ask it (issue 10 §1): which of the courses on a screen are bought
 * (GET /api/course/owned), whether a course page's course is bought or opened by VIP (GET /api/course/access),
 * and no up-sell popup over a video the member may watch in full.
 */

const clock = new Date('2026-11-25T08:00:00Z')

describe('owned state', () => {
  const t = useTestApp({}, { integrations: { now: () => clock } })
  let w: LearningWorld
  let vipFree: number
  let vipVideo: number

  beforeAll(async () => {
    const db = t().database.db
    w = await makeLearningWorld(db, clock)
    vipFree = await makeCourse(db, { title: '会员免费课', priceFen: 6900, vipFree: true })
    vipVideo = await makeVideo(db, vipFree, { title: '会员课第 1 课', durationSeconds: 60, sort: 0 })
    await makeReady(db, vipVideo, 60)
  })
  beforeEach(() => clearAllCaches())

  async function get<T>(url: string, headers: Record<string, string> = {}) {
    const res = await t().app.inject({ method: 'GET', url, headers })
    return { status: res.statusCode, body: res.json<Envelope<T>>() }
  }
  const newMember = () => makeMember(t().database.db, 'member', clock)

  describe('GET /api/course/owned', () => {
    it('names the bought courses among the ids asked, not the ones VIP opens; nothing for a visitor', async () => {
      const m = await newMember()
      await extendVipMembership(t().database.db, m.id, 30, clock)
      const ids = `${w.paid},${w.free},${vipFree}`
      expect((await get<{ owned: number[] }>(`/api/course/owned?ids=${ids}`, m.headers)).body.data.owned).toEqual([])
      await grant(t().app, w.admin.headers, m.id, w.paid)
      expect((await get<{ owned: number[] }>(`/api/course/owned?ids=${ids}`, m.headers)).body.data).toEqual({
        owned: [w.paid],
      })
      expect((await get<{ owned: number[] }>(`/api/course/owned?ids=${ids}`)).body).toMatchObject({
        code: 200,
        data: { owned: [] },
      })
    })

    it('rejects a malformed or oversized list with 400', async () => {
      const m = await newMember()
      expect((await get(`/api/course/owned?ids=1,x`, m.headers)).status).toBe(400)
      const many = Array.from({ length: 101 }, (_, i) => i + 1).join(',')
      expect((await get(`/api/course/owned?ids=${many}`, m.headers)).status).toBe(400)
    })
  })

  describe('GET /api/course/access', () => {
    type Access = { mode: string; owned: boolean; via_vip: boolean }
    it('says whether the course is bought, or opened by VIP only', async () => {
      const m = await newMember()
      expect((await get<Access>(`/api/course/access?course_id=${w.paid}`, m.headers)).body.data).toMatchObject({
        mode: 'preview',
        owned: false,
        via_vip: false,
      })
      await grant(t().app, w.admin.headers, m.id, w.paid)
      expect((await get<Access>(`/api/course/access?course_id=${w.paid}`, m.headers)).body.data).toMatchObject({
        mode: 'full',
        owned: true,
        via_vip: false,
      })
      await extendVipMembership(t().database.db, m.id, 30, clock)
      clearAllCaches()
      expect((await get<Access>(`/api/course/access?course_id=${vipFree}`, m.headers)).body.data).toMatchObject({
        mode: 'full',
        owned: false,
        via_vip: true,
      })
    })
  })

  describe('GET /api/course/access of a system course', () => {
    type Access = { mode: string; owned: boolean }
    it('stays for sale to a member who bought or started one of its courses on its own', async () => {
      const db = t().database.db
      const system = await makeCourse(db, { title: '体系课', type: 'system', priceFen: 99900 })
      await db.insert(systemCourseItems).values([{ systemCourseId: system, courseId: w.paid, sort: 0 }])
      const m = await newMember()
      await t().app.inject({
        method: 'POST',
        url: '/api/update_play_data',
        payload: { vid: w.freeLesson, position: 10 },
        headers: m.headers,
      })
      await grant(t().app, w.admin.headers, m.id, w.paid)
      clearAllCaches()
      expect((await get<Access>(`/api/course/access?course_id=${system}`, m.headers)).body.data).toMatchObject({
        mode: 'none',
        owned: false,
      })
      await grant(t().app, w.admin.headers, m.id, system)
      expect((await get<Access>(`/api/course/access?course_id=${system}`, m.headers)).body.data).toMatchObject({
        mode: 'full',
        owned: true,
      })
    })
  })

  describe('GET /api/center/my_album progress', () => {
    type Album = {
      list: {
        id: number
        progress: { video_count: number; finished_count: number; started_count: number; percent: number }
      }[]
    }
    it('counts lessons started and finished, and the watched share of a partly watched one', async () => {
      const m = await newMember()
      await grant(t().app, w.admin.headers, m.id, w.paid)
      const watch = (vid: number, position: number) =>
        t().app.inject({ method: 'POST', url: '/api/update_play_data', payload: { vid, position }, headers: m.headers })
      await watch(w.freeLesson, 30)
      await watch(w.locked, 50)
      const item = (await get<Album>('/api/center/my_album?limit=20', m.headers)).body.data.list.find(
        (c) => c.id === w.paid,
      )!
      // Four lessons: one finished (1), one a quarter watched (50 of 200 s): 1.25 of 4 is 31%.
      expect(item.progress).toMatchObject({ video_count: 4, finished_count: 1, started_count: 2, percent: 31 })
    })
  })

  describe('GET /api/popup/player/v2', () => {
    it('leaves out up-sells (VIP, buying) for a member who may watch the video in full', async () => {
      const db = t().database.db
      await db.insert(playerPopups).values([
        { courseId: vipFree, atSecond: 4, title: '开通 VIP，好课免费学', link: '/vip' },
        { courseId: vipFree, atSecond: 6, title: '加入学习群', link: '/customerG' },
      ])
      const titles = async (headers?: Record<string, string>) =>
        (await get<{ list: { title: string }[] }>(`/api/popup/player/v2?vid=${vipVideo}`, headers)).body.data.list.map(
          (p) => p.title,
        )
      expect(await titles()).toEqual(['开通 VIP，好课免费学', '加入学习群'])
      const m = await newMember()
      expect(await titles(m.headers)).toEqual(['开通 VIP，好课免费学', '加入学习群'])
      await extendVipMembership(db, m.id, 30, clock)
      clearAllCaches()
      expect(await titles(m.headers)).toEqual(['加入学习群'])
    })
  })
})
