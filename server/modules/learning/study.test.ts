import { eq } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { systemCourseItems } from '#server/db/schema/catalogue.ts'
import { playerPopups, popupClicks } from '#server/db/schema/learning.ts'
import { clearAllCaches } from '#server/http/public-cache.ts'
import {
  extendVipMembership as extendMembership,
  shortenVipMembership as shortenMembership,
} from '#server/modules/access/access.service.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'
import { grant, makeLearningWorld, makeReady, type Envelope, type LearningWorld } from './testing.ts'

const start = new Date('2026-11-22T08:00:00Z')
let clock = new Date(start)
const tick = (ms = 1000) => {
  clock = new Date(clock.getTime() + ms)
}

type Member = Awaited<ReturnType<typeof makeMember>>

describe('notes, popups and study lists API', () => {
  const t = useTestApp({}, { integrations: { now: () => clock } })
  let w: LearningWorld

  beforeAll(async () => {
    w = await makeLearningWorld(t().database.db, clock)
  })
  beforeEach(() => {
    clearAllCaches()
  })

  async function get<T>(url: string, headers: Record<string, string> = {}) {
    const res = await t().app.inject({ method: 'GET', url, headers })
    return { status: res.statusCode, body: res.json<Envelope<T>>() }
  }

  async function post<T>(url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) {
    const res = await t().app.inject({ method: 'POST', url, payload, headers })
    return { status: res.statusCode, body: res.json<Envelope<T>>() }
  }

  const newMember = () => makeMember(t().database.db, 'member', clock)
  const watch = (m: Member, vid: number, position: number) =>
    post('/api/update_play_data', { vid, position }, m.headers)

  describe('POST /api/video/note, GET /api/video/notes, POST /api/video/note/delete', () => {
    type Note = { id: number; vid: number; second: number; content: string; created_at: string }

    it('adds notes at time points and lists them in video order', async () => {
      const m = await newMember()
      const late = await post<Note>(
        '/api/video/note',
        { vid: w.freeVideo, second: 40.6, content: '  第二个要点 ' },
        m.headers,
      )
      expect(late.body.code).toBe(200)
      expect(late.body.data).toMatchObject({
        vid: w.freeVideo,
        second: 40,
        content: '第二个要点',
        created_at: clock.toISOString(),
      })
      await post('/api/video/note', { vid: w.freeVideo, second: 5, content: '开头\n换行也保留' }, m.headers)
      const { body } = await get<{ list: Note[] }>(`/api/video/notes?vid=${w.freeVideo}`, m.headers)
      expect(body.data.list.map((n) => [n.second, n.content])).toEqual([
        [5, '开头\n换行也保留'],
        [40, '第二个要点'],
      ])
    })

    it('keeps a note’s second within the video', async () => {
      const m = await newMember()
      expect(
        (await post<Note>('/api/video/note', { vid: w.freeVideo, second: 500, content: '末尾' }, m.headers)).body.data
          .second,
      ).toBe(60)
    })

    it('shows and deletes only the member’s own notes', async () => {
      const alice = await newMember()
      const bob = await newMember()
      const note = (
        await post<Note>('/api/video/note', { vid: w.freeVideo, second: 3, content: 'Alice 的笔记' }, alice.headers)
      ).body.data
      expect((await get<{ list: Note[] }>(`/api/video/notes?vid=${w.freeVideo}`, bob.headers)).body.data.list).toEqual(
        [],
      )
      const refused = await post('/api/video/note/delete', { id: note.id }, bob.headers)
      expect(refused.status).toBe(404)
      expect(refused.body.msg).toBe('笔记不存在')
      expect(
        (await get<{ list: Note[] }>(`/api/video/notes?vid=${w.freeVideo}`, alice.headers)).body.data.list,
      ).toHaveLength(1)
      expect((await post('/api/video/note/delete', { id: note.id }, alice.headers)).body.code).toBe(200)
      expect(
        (await get<{ list: Note[] }>(`/api/video/notes?vid=${w.freeVideo}`, alice.headers)).body.data.list,
      ).toEqual([])
      expect((await post('/api/video/note/delete', { id: note.id }, alice.headers)).status).toBe(404)
    })

    it('takes notes on a preview, refuses them on a locked video (474) and an unknown one (404)', async () => {
      const m = await newMember()
      expect(
        (await post('/api/video/note', { vid: w.preview, second: 3, content: '试看笔记' }, m.headers)).body.code,
      ).toBe(200)
      expect((await post('/api/video/note', { vid: w.locked, second: 3, content: '偷看' }, m.headers)).body.code).toBe(
        474,
      )
      expect((await post('/api/video/note', { vid: 2_000_000_000, second: 3, content: 'x' }, m.headers)).status).toBe(
        404,
      )
    })

    it('checks the content: 1–500 characters, no control characters (475)', async () => {
      const m = await newMember()
      for (const content of ['', '   ', '字'.repeat(501), 'bell\u0007']) {
        const { body } = await post('/api/video/note', { vid: w.freeVideo, second: 1, content }, m.headers)
        expect(body.code, JSON.stringify(content)).toBe(475)
        expect(body.msg).toBe('笔记需为 1–500 个字')
      }
      expect(
        (await post('/api/video/note', { vid: w.freeVideo, second: 1, content: '字'.repeat(500) }, m.headers)).body
          .code,
      ).toBe(200)
    })

    it('rejects malformed input with 400 and anonymous visitors with 301', async () => {
      const m = await newMember()
      expect((await post('/api/video/note', { vid: w.freeVideo, content: 'x' }, m.headers)).body.data).toEqual({
        field: 'second',
      })
      expect((await post('/api/video/note', { vid: w.freeVideo, second: 1 }, m.headers)).body.data).toEqual({
        field: 'content',
      })
      expect(
        (await post('/api/video/note', { vid: w.freeVideo, second: 1, content: 'x'.repeat(3000) }, m.headers)).status,
      ).toBe(400)
      expect((await post('/api/video/note/delete', { id: 'abc' }, m.headers)).status).toBe(400)
      expect((await get(`/api/video/notes?vid=x`, m.headers)).status).toBe(400)
      expect((await post('/api/video/note', { vid: w.freeVideo, second: 1, content: 'x' })).body.code).toBe(301)
      expect((await get(`/api/video/notes?vid=${w.freeVideo}`)).body.code).toBe(301)
      expect((await post('/api/video/note/delete', { id: 1 })).body.code).toBe(301)
    })
  })

  describe('GET /api/popup/player/v2 and POST /api/popup/player/click', () => {
    type Popup = {
      id: number
      at_second: number
      title: string
      content: string
      image: string | null
      link: string | null
    }
    let ids: { video: number; course: number; off: number; unsafe: number }

    beforeAll(async () => {
      const rows = await t()
        .database.db.insert(playerPopups)
        .values([
          {
            videoId: w.freeLesson,
            atSecond: 20,
            title: '视频弹窗',
            content: '加群',
            link: '/customerG',
            imageUrl: '/demo/popup.webp',
          },
          { courseId: w.paid, atSecond: 5, title: '课程弹窗', link: 'https://example.com/vip' },
          { courseId: w.paid, atSecond: 8, title: '已关闭', active: false },
          {
            videoId: w.freeLesson,
            atSecond: 9,
            title: '坏链接',
            link: 'javascript:alert(1)',
            imageUrl: '//evil.example/x.png',
          },
        ])
        .returning({ id: playerPopups.id })
      ids = { video: rows[0]!.id, course: rows[1]!.id, off: rows[2]!.id, unsafe: rows[3]!.id }
    })

    it('lists a video’s own popups and its course’s, by second, without switched-off ones or unsafe links', async () => {
      const { body } = await get<{ list: Popup[] }>(`/api/popup/player/v2?vid=${w.freeLesson}`)
      expect(body.data.list).toEqual([
        { id: ids.course, at_second: 5, title: '课程弹窗', content: '', image: null, link: 'https://example.com/vip' },
        { id: ids.unsafe, at_second: 9, title: '坏链接', content: '', image: null, link: null },
        {
          id: ids.video,
          at_second: 20,
          title: '视频弹窗',
          content: '加群',
          image: '/demo/popup.webp',
          link: '/customerG',
        },
      ])
      expect(
        (await get<{ list: Popup[] }>(`/api/popup/player/v2?vid=${w.locked}`)).body.data.list.map((p) => p.id),
      ).toEqual([ids.course])
      expect((await get<{ list: Popup[] }>(`/api/popup/player/v2?vid=${w.freeVideo}`)).body.data.list).toEqual([])
      expect((await get('/api/popup/player/v2')).status).toBe(400)
    })

    it('counts clicks from members and anonymous visitors; unknown or switched-off popups are 404', async () => {
      const m = await newMember()
      expect((await post('/api/popup/player/click', { id: ids.video }, m.headers)).body.code).toBe(200)
      expect((await post('/api/popup/player/click', { id: String(ids.video) })).body.code).toBe(200)
      const clicks = await t().database.db.select().from(popupClicks).where(eq(popupClicks.popupId, ids.video))
      expect(clicks.map((c) => c.memberId).sort()).toEqual([m.id, null].sort())
      expect((await post('/api/popup/player/click', { id: ids.off })).status).toBe(404)
      expect((await post('/api/popup/player/click', { id: 2_000_000_000 })).status).toBe(404)
      expect((await post('/api/popup/player/click', {})).status).toBe(400)
    })
  })

  describe('GET /api/center/study_record', () => {
    type Record = {
      vid: number
      course_title: string
      position: number
      percent: number
      finished: boolean
      updated_at: string
    }
    type Page = { list: Record[]; next_cursor: string | null }

    it('lists what the member watched, newest first, with progress, paged by cursor', async () => {
      const m = await newMember()
      await watch(m, w.freeVideo, 30)
      tick()
      await watch(m, w.freeLesson, 30)
      tick()
      await watch(m, w.preview, 5)
      const first = await get<Page>('/api/center/study_record?limit=2', m.headers)
      expect(first.body.data.list.map((r) => [r.vid, r.position, r.percent, r.finished])).toEqual([
        [w.preview, 5, 5, false],
        [w.freeLesson, 30, 100, true],
      ])
      expect(first.body.data.list[0]).toMatchObject({ course_title: '付费课', updated_at: clock.toISOString() })
      const second = await get<Page>(
        `/api/center/study_record?limit=2&cursor=${first.body.data.next_cursor}`,
        m.headers,
      )
      expect(second.body.data.list.map((r) => [r.vid, r.percent])).toEqual([[w.freeVideo, 50]])
      expect(second.body.data.next_cursor).toBeNull()
    })

    it('moves a video to the top when it is watched again, and shows only the member’s own history', async () => {
      const m = await newMember()
      const other = await newMember()
      await watch(m, w.freeVideo, 10)
      tick()
      await watch(m, w.freeLesson, 10)
      tick()
      await watch(m, w.freeVideo, 12)
      await watch(other, w.preview, 3)
      const { body } = await get<Page>('/api/center/study_record', m.headers)
      expect(body.data.list.map((r) => r.vid)).toEqual([w.freeVideo, w.freeLesson])
    })

    it('leaves out videos of courses no longer published, still filling each page', async () => {
      const m = await newMember()
      await watch(m, w.freeVideo, 10)
      tick()
      await watch(m, w.freeLesson, 10)
      tick()
      await watch(m, w.hiddenVideo, 10)
      const first = await get<Page>('/api/center/study_record?limit=1', m.headers)
      expect(first.body.data.list.map((r) => r.vid)).toEqual([w.freeLesson])
      const second = await get<Page>(
        `/api/center/study_record?limit=1&cursor=${first.body.data.next_cursor}`,
        m.headers,
      )
      expect(second.body.data).toMatchObject({ list: [{ vid: w.freeVideo }], next_cursor: null })
    })

    it('is empty for a newcomer, asks anonymous visitors to log in, and rejects a bad cursor', async () => {
      const m = await newMember()
      expect((await get<Page>('/api/center/study_record', m.headers)).body.data).toEqual({
        list: [],
        next_cursor: null,
      })
      expect((await get('/api/center/study_record')).body.code).toBe(301)
      expect((await get('/api/center/study_record?cursor=bm9wZQ', m.headers)).status).toBe(400)
      expect((await get('/api/center/study_record?limit=51', m.headers)).status).toBe(400)
    })
  })

  describe('GET /api/center/my_album', () => {
    type Item = {
      id: number
      title: string
      source: string
      expires_at: string | null
      progress: { video_count: number; finished_count: number; percent: number; last_vid: number | null }
    }
    type Page = { list: Item[]; next_cursor: string | null }

    it('lists granted courses and started free courses with progress; a preview alone gives nothing', async () => {
      const m = await newMember()
      await watch(m, w.preview, 5) // preview of the paid course: not theirs
      tick()
      expect((await get<Page>('/api/center/my_album', m.headers)).body.data.list).toEqual([])

      await watch(m, w.freeVideo, 60)
      tick()
      const expires = new Date(clock.getTime() + 30 * 24 * 3600_000).toISOString()
      await grant(t().app, w.admin.headers, m.id, w.paid, expires)
      const { body } = await get<Page>('/api/center/my_album', m.headers)
      expect(body.data.list.map((c) => [c.id, c.source])).toEqual([
        [w.free, 'free'],
        [w.paid, 'admin'],
      ])
      expect(body.data.list[0]!.progress).toMatchObject({
        video_count: 1,
        finished_count: 1,
        percent: 100,
        last_vid: w.freeVideo,
      })
      expect(body.data.list[1]).toMatchObject({
        expires_at: expires,
        progress: { video_count: 4, finished_count: 0, last_vid: w.preview },
      })
    })

    it('drops revoked and expired grants, keeps the most recently studied first, and pages', async () => {
      const m = await newMember()
      const revoked = await grant(t().app, w.admin.headers, m.id, w.paid)
      await post(`/api/admin/entitlements/${revoked}/revoke`, {}, w.admin.headers)
      await grant(t().app, w.admin.headers, m.id, w.paid, new Date(clock.getTime() + 3600_000).toISOString())
      await watch(m, w.freeVideo, 1)
      tick()
      const first = await get<Page>('/api/center/my_album?limit=1', m.headers)
      expect(first.body.data.list.map((c) => c.id)).toEqual([w.free])
      const second = await get<Page>(`/api/center/my_album?limit=1&cursor=${first.body.data.next_cursor}`, m.headers)
      expect(second.body.data.list.map((c) => c.id)).toEqual([w.paid])
      expect(second.body.data.next_cursor).toBeNull()
      tick(2 * 3600_000) // the grant expires
      expect((await get<Page>('/api/center/my_album', m.headers)).body.data.list.map((c) => c.id)).toEqual([w.free])
    })

    it('shows a course granted twice once, with its most generous grant, next to a running VIP', async () => {
      const m = await newMember()
      await extendMembership(t().database.db, m.id, 30, clock)
      const ending = new Date(clock.getTime() + 3600_000).toISOString()
      await grant(t().app, w.admin.headers, m.id, w.paid, ending)
      await grant(t().app, w.admin.headers, m.id, w.paid) // no end: beats the one that ends
      await grant(t().app, w.admin.headers, m.id, w.paid, new Date(clock.getTime() + 7200_000).toISOString())
      const { body } = await get<Page>('/api/center/my_album', m.headers)
      expect(body.data.list.map((c) => [c.id, c.source, c.expires_at])).toEqual([[w.paid, 'admin', null]])
      expect(body.data.next_cursor).toBeNull()
    })

    it('lists a VIP-free course the member started while their VIP runs, and drops it when the VIP ends', async () => {
      const db = t().database.db
      const vipCourse = await makeCourse(db, { title: 'VIP 免费课', priceFen: 9900, vipFree: true })
      const lesson = await makeVideo(db, vipCourse, { title: 'VIP 第 1 课', durationSeconds: 40 })
      await makeReady(db, lesson, 40)
      const m = await newMember()
      const expires = await extendMembership(db, m.id, 30, clock)
      expect((await watch(m, lesson, 12)).body.code).toBe(200)
      const { body } = await get<Page>('/api/center/my_album', m.headers)
      expect(body.data.list.map((c) => [c.id, c.source, c.expires_at])).toEqual([
        [vipCourse, 'vip', expires.toISOString()],
      ])
      await shortenMembership(db, m.id, 31, clock) // the VIP has ended
      expect((await get<Page>('/api/center/my_album', m.headers)).body.data.list).toEqual([])
    })

    it('asks anonymous visitors to log in', async () => {
      expect((await get('/api/center/my_album')).body.code).toBe(301)
    })

    it('reads the cards from the catalogue’s cache: one statement again, and an operator’s edit shows at once', async () => {
      const db = t().database.db
      const course = await makeCourse(db, { title: '缓存卡片课', priceFen: 100 })
      const m = await newMember()
      await grant(t().app, w.admin.headers, m.id, course)
      const titles = async () => (await get<Page>('/api/center/my_album', m.headers)).body.data.list.map((c) => c.title)
      expect(await titles()).toEqual(['缓存卡片课'])
      // The member's rights and progress in one statement; the session and the cards are remembered.
      const spy = vi.spyOn(t().database.pool, 'query')
      try {
        expect(await titles()).toEqual(['缓存卡片课'])
        expect(spy.mock.calls.length).toBe(1)
      } finally {
        spy.mockRestore()
      }
      const edit = await t().app.inject({
        method: 'PATCH',
        url: `/api/admin/courses/${course}`,
        payload: { title: '改名后的卡片课' },
        headers: w.admin.headers,
      })
      expect(edit.json<Envelope<unknown>>().code).toBe(200)
      expect(await titles()).toEqual(['改名后的卡片课'])
    })
  })

  describe('system courses: GET /api/system_course/progress and /api/center/system_courses', () => {
    let system: number
    let partA: number
    let partB: number
    let a1: number
    let b1: number
    let b2: number

    beforeAll(async () => {
      const db = t().database.db
      partA = await makeCourse(db, { title: '第一阶段', priceFen: 100 })
      partB = await makeCourse(db, { title: '第二阶段', priceFen: 100 })
      a1 = await makeVideo(db, partA, { title: 'A1', durationSeconds: 20 })
      b1 = await makeVideo(db, partB, { title: 'B1', durationSeconds: 20, sort: 0 })
      b2 = await makeVideo(db, partB, { title: 'B2', durationSeconds: 20, sort: 1 })
      for (const v of [a1, b1, b2]) await makeReady(db, v, 20)
      system = await makeCourse(db, { type: 'system', title: '体系班', priceFen: 999 })
      await db.insert(systemCourseItems).values([
        { systemCourseId: system, courseId: partA, sort: 0 },
        { systemCourseId: system, courseId: partB, sort: 1 },
      ])
    })

    it('counts the programme’s progress over all its courses for a member granted the system course', async () => {
      const m = await newMember()
      type P = {
        joined: boolean
        overall: { video_count: number; finished_count: number; percent: number; last_vid: number | null }
        courses: { course_id: number; finished_count: number; percent: number }[]
      }
      const before = await get<P>(`/api/system_course/progress?id=${system}`, m.headers)
      expect(before.body.data).toMatchObject({
        joined: false,
        overall: { video_count: 3, finished_count: 0, percent: 0, last_vid: null },
      })
      expect((await get<{ list: unknown[] }>('/api/center/system_courses', m.headers)).body.data.list).toEqual([])

      await grant(t().app, w.admin.headers, m.id, system)
      expect((await watch(m, a1, 20)).body.code).toBe(200) // the grant covers its courses
      tick()
      await watch(m, b1, 5)
      const { body } = await get<P>(`/api/system_course/progress?id=${system}`, m.headers)
      expect(body.data).toMatchObject({
        joined: true,
        // A1 finished (1) and a quarter of B1 (5 of 20 s): 1.25 of 3 lessons, 41% rounded down.
        overall: { video_count: 3, finished_count: 1, started_count: 2, percent: 41, last_vid: b1 },
      })
      expect(body.data.courses.map((c) => [c.course_id, c.finished_count, c.percent])).toEqual([
        [partA, 1, 100],
        [partB, 0, 12],
      ])
      const mine = await get<{ list: { id: number; course_count: number; progress: { percent: number } }[] }>(
        '/api/center/system_courses',
        m.headers,
      )
      expect(mine.body.data.list.map((c) => [c.id, c.course_count, c.progress.percent])).toEqual([[system, 2, 41]])
    })

    it('answers 404 for a course that is not a system course, 301 for anonymous visitors', async () => {
      const m = await newMember()
      expect((await get(`/api/system_course/progress?id=${w.paid}`, m.headers)).status).toBe(404)
      expect((await get(`/api/system_course/progress?id=${system}`)).body.code).toBe(301)
      expect((await get('/api/center/system_courses')).body.code).toBe(301)
    })
  })

  describe('GET /api/course/access for live courses', () => {
    it('gives the stream URL while live, only to those who may watch', async () => {
      const db = t().database.db
      const liveAt = {
        liveStartsAt: new Date(clock.getTime() - 600_000),
        liveEndsAt: new Date(clock.getTime() + 3600_000),
      }
      const freeLive = await makeCourse(db, {
        type: 'live',
        title: '免费直播',
        isFree: true,
        priceFen: 0,
        livePullUrl: 'https://live.example.com/a.m3u8',
        ...liveAt,
      })
      const paidLive = await makeCourse(db, {
        type: 'live',
        title: '付费直播',
        priceFen: 990,
        livePullUrl: 'https://live.example.com/b.m3u8',
        ...liveAt,
      })
      type A = { mode: string; live_status: string | null; live_pull_url: string | null }
      expect((await get<A>(`/api/course/access?course_id=${freeLive}`)).body.data).toMatchObject({
        mode: 'full',
        live_status: 'live',
        live_pull_url: 'https://live.example.com/a.m3u8',
      })
      expect((await get<A>(`/api/course/access?course_id=${paidLive}`)).body.data).toMatchObject({
        mode: 'none',
        live_status: 'live',
        live_pull_url: null,
      })
      const m = await newMember()
      await grant(t().app, w.admin.headers, m.id, paidLive)
      expect((await get<A>(`/api/course/access?course_id=${paidLive}`, m.headers)).body.data).toMatchObject({
        mode: 'full',
        live_pull_url: 'https://live.example.com/b.m3u8',
      })
      tick(2 * 3600_000)
      clearAllCaches()
      expect((await get<A>(`/api/course/access?course_id=${freeLive}`)).body.data).toMatchObject({
        live_status: 'ended',
        live_pull_url: null,
      })
    })
  })
})
