import { and, eq } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/node-postgres'
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { schema } from '#server/db/database.ts'
import { studyProgress } from '#server/db/schema/learning.ts'
import { clearAllCaches } from '#server/http/public-cache.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import { upsertProgress } from './learning.repository.ts'
import type { CourseAccess, PlayDataResult, VideoPage } from './learning.schema.ts'
import { grant, makeLearningWorld, type Envelope, type LearningWorld } from './testing.ts'

const start = new Date('2026-11-22T08:00:00Z')
let clock = new Date(start)

describe('player and progress API', () => {
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

  async function post<T>(url: string, payload: unknown, headers: Record<string, string> = {}) {
    const res = await t().app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers })
    return { status: res.statusCode, body: res.json<Envelope<T>>() }
  }

  async function saved(memberId: number, videoId: number) {
    const [row] = await t()
      .database.db.select()
      .from(studyProgress)
      .where(and(eq(studyProgress.memberId, memberId), eq(studyProgress.videoId, videoId)))
    return row
  }

  /** Counts the SQL statements the pool runs while `fn` runs. */
  async function countQueries(fn: () => Promise<unknown>) {
    const spy = vi.spyOn(t().database.pool, 'query')
    try {
      await fn()
      return spy.mock.calls.length
    } finally {
      spy.mockRestore()
    }
  }

  describe('GET /api/video and /api/v2/video', () => {
    it('gives an anonymous visitor a free lesson in full, with the course, chapters, next video and a signed URL', async () => {
      for (const path of ['/api/video', '/api/v2/video']) {
        const { status, body } = await get<VideoPage>(`${path}?vid=${w.freeLesson}`)
        expect(status).toBe(200)
        expect(body.code).toBe(200)
        const d = body.data
        expect(d.video).toMatchObject({
          id: w.freeLesson,
          title: '免费第 1 课',
          duration: 30,
          is_free: true,
          course_id: w.paid,
          progress: null,
        })
        expect(d.course).toMatchObject({ id: w.paid, title: '付费课', price_fen: 19900, video_count: 4 })
        expect(d.chapters.map((c) => [c.title, c.videos.map((v) => v.id)])).toEqual([
          ['第一章', [w.freeLesson, w.preview]],
          ['第二章', [w.locked, w.processing]],
        ])
        expect(d.access).toEqual({ mode: 'full', until_second: null, reason: 'free_video', login_required: false })
        expect(d.play_status).toBe('ready')
        expect(d.play!.master_url).toMatch(new RegExp(`^/media/hls/${w.freeLesson}/master\\.m3u8\\?`))
        expect(d.next_vid).toBe(w.preview)
        expect(d.prev_vid).toBeNull()
        expect(d.resume_position).toBe(0)
        expect(d.watermark).toBeNull()
      }
    })

    it('gives an anonymous visitor the preview, and says logging in may unlock it', async () => {
      const { body } = await get<VideoPage>(`/api/video?vid=${w.preview}`)
      expect(body.data.access).toEqual({ mode: 'preview', until_second: 10, reason: 'preview', login_required: true })
      expect(body.data.play).not.toBeNull()
      expect(body.data.play!.master_url).toContain('lim=10')
    })

    it('gives no URL for a locked lesson without access, but still the page data', async () => {
      const { body } = await get<VideoPage>(`/api/video?vid=${w.locked}`, w.alice.headers)
      expect(body.code).toBe(200)
      expect(body.data.access).toEqual({ mode: 'none', until_second: null, reason: 'no_access', login_required: false })
      expect(body.data.play).toBeNull()
      expect(body.data.play_status).toBe('no_access')
      expect(body.data.video.progress).toEqual({ position: 0, percent: 0, finished: false })
    })

    it('plays the whole course to a member granted it through the admin API', async () => {
      const member = await makeMember(t().database.db, 'member', clock)
      await grant(t().app, w.admin.headers, member.id, w.paid)
      for (const vid of [w.preview, w.locked]) {
        const { body } = await get<VideoPage>(`/api/video?vid=${vid}`, member.headers)
        expect(body.data.access).toEqual({
          mode: 'full',
          until_second: null,
          reason: 'entitled',
          login_required: false,
        })
        expect(body.data.play?.master_url).not.toContain('lim=')
        const id = String(member.id)
        expect(body.data.watermark).toBe(`学员 ${id.slice(0, 2)}**${id.slice(-4)}`)
      }
    })

    it('says a video is still processing, with the access it will have', async () => {
      const { body } = await get<VideoPage>(`/api/video?vid=${w.processing}`)
      expect(body.data.play_status).toBe('processing')
      expect(body.data.play).toBeNull()
      expect(body.data.access).toMatchObject({ mode: 'full', reason: 'free_video' })
      expect(body.data.next_vid).toBeNull()
      expect(body.data.prev_vid).toBe(w.locked)
    })

    it('answers 404 for an unknown video and for a video of an unpublished course', async () => {
      for (const vid of [2_000_000_000, w.hiddenVideo]) {
        const { status, body } = await get(`/api/video?vid=${vid}`)
        expect(status).toBe(404)
        expect(body.code).toBe(404)
      }
    })

    it('rejects a missing or malformed vid with 400 naming the field', async () => {
      for (const qs of ['', '?vid=abc', '?vid=0', '?vid=-3', '?vid=99999999999']) {
        const { status, body } = await get(`/api/video${qs}`)
        expect(status).toBe(400)
        expect(body.data).toEqual({ field: 'vid' })
      }
    })
  })

  describe('POST /api/update_play_data', () => {
    it('asks an anonymous visitor to log in (301)', async () => {
      const { body } = await post('/api/update_play_data', { vid: w.freeLesson, position: 5 })
      expect(body.code).toBe(301)
    })

    it('saves the position, and GET /api/video resumes there on any device', async () => {
      const { body } = await post<PlayDataResult>(
        '/api/update_play_data',
        { vid: w.freeVideo, position: 20.7, duration: 60 },
        w.alice.headers,
      )
      expect(body.code).toBe(200)
      expect(body.data).toEqual({
        vid: w.freeVideo,
        position: 20,
        duration: 60,
        finished: false,
        until_second: null,
        preview_ended: false,
      })
      // Another session of the same member (another phone) resumes at the same place.
      const other = await t().app.inject({
        method: 'POST',
        url: '/api/update_play_data',
        headers: w.alice.headers,
        payload: { vid: String(w.freeVideo), position: '21' },
      })
      expect(other.json<Envelope<PlayDataResult>>().data.position).toBe(21)
      const page = await get<VideoPage>(`/api/video?vid=${w.freeVideo}`, w.alice.headers)
      expect(page.body.data.resume_position).toBe(21)
      expect(page.body.data.video.progress).toEqual({ position: 21, percent: 35, finished: false })
      expect((await saved(w.alice.id, w.freeVideo))?.courseId).toBe(w.free)
    })

    it('keeps the later save of a page view when an earlier one arrives after it (a save overtaken by the beacon)', async () => {
      const member = await makeMember(t().database.db, 'member', clock)
      const save = async (body: Record<string, unknown>) =>
        (await post<PlayDataResult>('/api/update_play_data', { vid: w.freeVideo, ...body }, member.headers)).body
      const view = 1_234_567

      expect((await save({ position: 20, view, seq: 3 })).data.position).toBe(20)
      // The periodic save the player sent before the beacon lands last: it answers with the position kept.
      const late = await save({ position: 18, view, seq: 2 })
      expect(late).toMatchObject({ code: 200, data: { position: 20, finished: false } })
      expect((await saved(member.id, w.freeVideo))?.position).toBe(20)

      // The same page view going back on purpose is a later save, and is kept.
      expect((await save({ position: 10, view, seq: 4 })).data.position).toBe(10)
      // Another page view (another phone, the lesson opened again) starts its own count.
      expect((await save({ position: 5, view: 7, seq: 0 })).data.position).toBe(5)
      // A page without the order (older pages) is taken as it comes, and so is the next save after it.
      expect((await save({ position: 6 })).data.position).toBe(6)
      expect((await save({ position: 4, view: 7, seq: 0 })).data.position).toBe(4)
      expect((await saved(member.id, w.freeVideo))?.position).toBe(4)

      // The same for a preview's saves, and through a beacon.
      const beacon = (body: Record<string, unknown>) =>
        t().app.inject({
          method: 'POST',
          url: '/api/video/updateFreeData',
          headers: { 'content-type': 'text/plain;charset=UTF-8' },
          payload: JSON.stringify({ vid: w.preview, token: member.token, ...body }),
        })
      expect((await beacon({ position: 9, view, seq: 8 })).json<Envelope<PlayDataResult>>().data.position).toBe(9)
      expect((await beacon({ position: 3, view, seq: 7 })).json<Envelope<PlayDataResult>>().data.position).toBe(9)
      expect((await saved(member.id, w.preview))?.position).toBe(9)

      // A late save that reached 90 % still marks the video finished, though the position stays.
      expect((await save({ position: 1, view: 7, seq: 9 })).data).toMatchObject({ position: 1, finished: false })
      expect((await save({ position: 58, view: 7, seq: 8 })).data).toMatchObject({ position: 1, finished: true })
      expect((await saved(member.id, w.freeVideo))?.finishedAt).not.toBeNull()

      for (const order of [{ view: 0, seq: 1 }, { view: 7 }, { seq: 10 }, { view: 7, seq: -1 }]) {
        const bad = await post<unknown>(
          '/api/update_play_data',
          { vid: w.freeVideo, position: 2, ...order },
          member.headers,
        )
        expect(bad.status, JSON.stringify(order)).toBe(400)
      }
      expect((await saved(member.id, w.freeVideo))?.position).toBe(1)
    })

    it('ends at the last save of a page view when its saves race each other', async () => {
      const member = await makeMember(t().database.db, 'member', clock)
      const view = 99
      // Twenty saves of one page view, sent at once in a scrambled order: the row ends at the highest number's.
      const order = Array.from({ length: 20 }, (_, i) => (i * 7) % 20)
      await Promise.all(
        order.map((seq) =>
          post<PlayDataResult>(
            '/api/update_play_data',
            { vid: w.freeVideo, position: seq * 2, view, seq },
            member.headers,
          ),
        ),
      )
      expect((await saved(member.id, w.freeVideo))?.position).toBe(38)
    })

    it('clamps the position to the video’s length', async () => {
      const { body } = await post<PlayDataResult>(
        '/api/update_play_data',
        { vid: w.freeLesson, position: 9999 },
        w.bob.headers,
      )
      expect(body.data).toMatchObject({ position: 30, duration: 30, finished: true })
    })

    it('counts a video as finished at 90%, and keeps it finished when watched again', async () => {
      const member = await makeMember(t().database.db, 'member', clock)
      const save = (position: number) =>
        post<PlayDataResult>('/api/update_play_data', { vid: w.freeVideo, position }, member.headers)
      expect((await save(53)).body.data.finished).toBe(false) // 88%
      expect((await save(54)).body.data.finished).toBe(true) // 90%
      const finishedAt = (await saved(member.id, w.freeVideo))!.finishedAt
      expect(finishedAt).toEqual(clock)
      clock = new Date(clock.getTime() + 60_000)
      const again = await save(3)
      expect(again.body.data).toMatchObject({ position: 3, finished: true })
      expect((await saved(member.id, w.freeVideo))!.finishedAt).toEqual(finishedAt)
    })

    it('starts a video again when it was left at its very end', async () => {
      const member = await makeMember(t().database.db, 'member', clock)
      await post('/api/update_play_data', { vid: w.freeVideo, position: 59 }, member.headers)
      const page = await get<VideoPage>(`/api/video?vid=${w.freeVideo}`, member.headers)
      expect(page.body.data.resume_position).toBe(0)
      expect(page.body.data.video.progress).toEqual({ position: 59, percent: 100, finished: true })
    })

    it('clamps a member without access to the end of the preview, which never counts as finished', async () => {
      const { body } = await post<PlayDataResult>(
        '/api/update_play_data',
        { vid: w.preview, position: 95 },
        w.alice.headers,
      )
      expect(body.data).toEqual({
        vid: w.preview,
        position: 10,
        duration: 100,
        finished: false,
        until_second: 10,
        preview_ended: true,
      })
      const page = await get<VideoPage>(`/api/video?vid=${w.preview}`, w.alice.headers)
      expect(page.body.data.resume_position).toBe(10)
    })

    it('refuses a locked video without access (474) and an unknown video (404)', async () => {
      const locked = await post('/api/update_play_data', { vid: w.locked, position: 5 }, w.alice.headers)
      expect(locked.body.code).toBe(474)
      expect(await saved(w.alice.id, w.locked)).toBeUndefined()
      const unknown = await post('/api/update_play_data', { vid: 2_000_000_000, position: 5 }, w.alice.headers)
      expect(unknown.status).toBe(404)
    })

    it('lets an entitled member save anywhere, from the next page view after the grant', async () => {
      const member = await makeMember(t().database.db, 'member', clock)
      await get(`/api/video?vid=${w.preview}`, member.headers)
      expect(
        (await post<PlayDataResult>('/api/update_play_data', { vid: w.preview, position: 50 }, member.headers)).body
          .data.position,
      ).toBe(10)
      await grant(t().app, w.admin.headers, member.id, w.paid)
      // The video page asks canWatch afresh.
      await get(`/api/video?vid=${w.preview}`, member.headers)
      const after = await post<PlayDataResult>(
        '/api/update_play_data',
        { vid: w.preview, position: 95 },
        member.headers,
      )
      expect(after.body.data).toMatchObject({ position: 95, finished: true, until_second: null, preview_ended: false })
    })

    it('notices a revoked grant within a minute even without a page view', async () => {
      const member = await makeMember(t().database.db, 'member', clock)
      const id = await grant(t().app, w.admin.headers, member.id, w.paid)
      expect(
        (await post<PlayDataResult>('/api/update_play_data', { vid: w.preview, position: 50 }, member.headers)).body
          .data.position,
      ).toBe(50)
      await post(`/api/admin/entitlements/${id}/revoke`, {}, w.admin.headers)
      clock = new Date(clock.getTime() + 61_000)
      expect(
        (await post<PlayDataResult>('/api/update_play_data', { vid: w.preview, position: 60 }, member.headers)).body
          .data.position,
      ).toBe(10)
    })

    it('rejects malformed input with 400 naming the field', async () => {
      const cases: [unknown, string][] = [
        [{ position: 5 }, 'vid'],
        [{ vid: w.freeLesson }, 'position'],
        [{ vid: 'abc', position: 5 }, 'vid'],
        [{ vid: 0, position: 5 }, 'vid'],
        [{ vid: w.freeLesson, position: -1 }, 'position'],
        [{ vid: w.freeLesson, position: 'x' }, 'position'],
        [{ vid: w.freeLesson, position: 86_401 }, 'position'],
        [{ vid: w.freeLesson, position: 5, duration: -2 }, 'duration'],
      ]
      for (const [payload, field] of cases) {
        const { status, body } = await post('/api/update_play_data', payload, w.alice.headers)
        expect(status, JSON.stringify(payload)).toBe(400)
        expect(body.data).toEqual({ field })
      }
    })

    it('refuses an oversized body (413)', async () => {
      const { status } = await post(
        '/api/update_play_data',
        { vid: w.freeLesson, position: 5, pad: 'x'.repeat(5000) },
        w.alice.headers,
      )
      expect(status).toBe(413)
    })

    it('takes a sendBeacon body: text/plain JSON with the token inside', async () => {
      const member = await makeMember(t().database.db, 'member', clock)
      const beacon = (payload: string) =>
        t().app.inject({
          method: 'POST',
          url: '/api/update_play_data',
          headers: { 'content-type': 'text/plain;charset=UTF-8' },
          payload,
        })
      const res = await beacon(JSON.stringify({ vid: w.freeVideo, position: 33, token: member.token }))
      expect(res.json<Envelope<PlayDataResult>>()).toMatchObject({ code: 200, data: { position: 33 } })
      expect((await saved(member.id, w.freeVideo))?.position).toBe(33)

      expect((await beacon(JSON.stringify({ vid: w.freeVideo, position: 34 }))).json<Envelope<unknown>>().code).toBe(
        301,
      )
      expect(
        (await beacon(JSON.stringify({ vid: w.freeVideo, position: 34, token: 'x'.repeat(43) }))).json<
          Envelope<unknown>
        >().code,
      ).toBe(301)
      expect((await beacon('{not json')).statusCode).toBe(400)
      expect((await saved(member.id, w.freeVideo))?.position).toBe(33)
    })

    it('answers 504 to a beacon with an expired token', async () => {
      const old = await makeMember(t().database.db, 'member', new Date(clock.getTime() - 31 * 24 * 3600_000))
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/update_play_data',
        headers: { 'content-type': 'text/plain' },
        payload: JSON.stringify({ vid: w.freeVideo, position: 3, token: old.token }),
      })
      expect(res.json<Envelope<unknown>>().code).toBe(504)
    })

    it('takes the token only from the body of the progress endpoints', async () => {
      const member = await makeMember(t().database.db, 'member', clock)
      const res = await t().app.inject({ method: 'GET', url: `/api/center/study_record?token=${member.token}` })
      expect(res.json<Envelope<unknown>>().code).toBe(301)
      const note = await t().app.inject({
        method: 'POST',
        url: '/api/video/note',
        headers: { 'content-type': 'text/plain' },
        payload: JSON.stringify({ vid: w.freeVideo, second: 1, content: 'x', token: member.token }),
      })
      expect(note.json<Envelope<unknown>>().code).toBe(301)
    })

    it('costs one upsert once the page was opened, the token in the header or in the body', async () => {
      const member = await makeMember(t().database.db, 'member', clock)
      await get(`/api/video?vid=${w.freeVideo}`, member.headers)
      // The page's request left the session remembered (server/modules/sessions/session-cache.ts).
      expect(
        await countQueries(() => post('/api/update_play_data', { vid: w.freeVideo, position: 12 }, member.headers)),
      ).toBe(1)
      expect((await saved(member.id, w.freeVideo))?.position).toBe(12)
      // The first body token is looked up, the next ones are remembered.
      await post('/api/update_play_data', { vid: w.freeVideo, position: 13, token: member.token })
      expect(
        await countQueries(() =>
          post('/api/update_play_data', { vid: w.freeVideo, position: 14, token: member.token }),
        ),
      ).toBe(1)
      expect((await saved(member.id, w.freeVideo))?.position).toBe(14)
    })

    it('refuses a remembered body token at once after logout, and an expired session with 504', async () => {
      const member = await makeMember(t().database.db, 'member', clock)
      expect(
        (await post('/api/update_play_data', { vid: w.freeVideo, position: 5, token: member.token })).body.code,
      ).toBe(200)
      expect((await post('/api/logout', {}, member.headers)).body.code).toBe(200)
      expect((await get('/api/center/study_record', member.headers)).body.code).toBe(301)
      // The token is still remembered by this process, but the save's own statement finds the session revoked.
      for (const position of [6, 7]) {
        expect(
          (await post('/api/update_play_data', { vid: w.freeVideo, position, token: member.token })).body.code,
        ).toBe(301)
        expect(
          (await post('/api/video/updateFreeData', { vid: w.freeVideo, position, token: member.token })).body.code,
        ).toBe(301)
      }
      expect((await saved(member.id, w.freeVideo))?.position).toBe(5)

      const other = await makeMember(t().database.db, 'member', clock)
      expect(
        (await post('/api/update_play_data', { vid: w.freeVideo, position: 5, token: other.token })).body.code,
      ).toBe(200)
      await t().database.pool.query('update sessions set expires_at = $2 where member_id = $1', [
        other.id,
        new Date(clock.getTime() + 1000),
      ])
      clock = new Date(clock.getTime() + 2000)
      expect(
        (await post('/api/update_play_data', { vid: w.freeVideo, position: 8, token: other.token })).body.code,
      ).toBe(504)
      expect((await saved(other.id, w.freeVideo))?.position).toBe(5)
    })

    it('commits saves asynchronously without leaving the connection that way', async () => {
      const member = await makeMember(t().database.db, 'member', clock)
      const sessionId = (
        await t().database.pool.query<{ id: number }>('select id from sessions where member_id = $1', [member.id])
      ).rows[0]!.id
      const client = await t().database.pool.connect()
      const setting = async () =>
        (await client.query<{ s: string }>("select current_setting('synchronous_commit') as s")).rows[0]!.s
      try {
        const db = drizzle({ client, schema, casing: 'snake_case' })
        await client.query('begin')
        await upsertProgress(db, {
          memberId: member.id,
          videoId: w.freeVideo,
          courseId: w.free,
          videoDuration: 60,
          position: 9,
          clientDuration: null,
          limit: null,
          now: clock,
          sessionId,
        })
        expect(await setting()).toBe('off')
        await client.query('commit')
        expect(await setting()).toBe('on')
        await upsertProgress(db, {
          memberId: member.id,
          videoId: w.freeVideo,
          courseId: w.free,
          videoDuration: 60,
          position: 10,
          clientDuration: null,
          limit: null,
          now: clock,
          sessionId,
        })
        expect(await setting()).toBe('on')
      } finally {
        client.release()
      }
      expect((await saved(member.id, w.freeVideo))?.position).toBe(10)
    })
  })

  describe('POST /api/video/updateFreeData', () => {
    it('saves a member’s preview position, never past the preview end', async () => {
      const member = await makeMember(t().database.db, 'member', clock)
      const within = await post<PlayDataResult>(
        '/api/video/updateFreeData',
        { vid: w.preview, position: 7 },
        member.headers,
      )
      expect(within.body.data).toMatchObject({ position: 7, until_second: 10, preview_ended: false })
      const past = await post<PlayDataResult>(
        '/api/video/updateFreeData',
        { vid: w.preview, position: 40 },
        member.headers,
      )
      expect(past.body.data).toMatchObject({ position: 10, preview_ended: true, finished: false })
    })

    it('keeps an anonymous preview in the browser: the server asks to log in', async () => {
      expect((await post('/api/video/updateFreeData', { vid: w.preview, position: 3 })).body.code).toBe(301)
    })

    it('refuses a video without preview (474) and bad input (400)', async () => {
      expect((await post('/api/video/updateFreeData', { vid: w.locked, position: 3 }, w.bob.headers)).body.code).toBe(
        474,
      )
      expect((await post('/api/video/updateFreeData', { vid: w.preview }, w.bob.headers)).status).toBe(400)
    })
  })

  describe('GET /api/video_page', () => {
    it('pages through a course’s videos in order, with the member’s progress', async () => {
      const member = await makeMember(t().database.db, 'member', clock)
      await post('/api/update_play_data', { vid: w.freeLesson, position: 30 }, member.headers)
      type Page = {
        list: { id: number; index: number; chapter_title: string; progress: { finished: boolean } | null }[]
        next_cursor: string | null
      }
      const first = await get<Page>(`/api/video_page?course_id=${w.paid}&limit=3`, member.headers)
      expect(first.body.data.list.map((v) => [v.id, v.index, v.chapter_title])).toEqual([
        [w.freeLesson, 1, '第一章'],
        [w.preview, 2, '第一章'],
        [w.locked, 3, '第二章'],
      ])
      expect(first.body.data.list[0]!.progress).toMatchObject({ finished: true })
      const second = await get<Page>(
        `/api/video_page?course_id=${w.paid}&limit=3&cursor=${first.body.data.next_cursor}`,
        member.headers,
      )
      expect(second.body.data.list.map((v) => v.id)).toEqual([w.processing])
      expect(second.body.data.next_cursor).toBeNull()
      const anonymous = await get<Page>(`/api/video_page?course_id=${w.paid}`)
      expect(anonymous.body.data.list.every((v) => v.progress === null)).toBe(true)
    })

    it('answers 404 for unknown or unpublished courses and 400 for bad paging', async () => {
      expect((await get(`/api/video_page?course_id=${w.hidden}`)).status).toBe(404)
      expect((await get('/api/video_page?course_id=1999999999')).status).toBe(404)
      expect((await get(`/api/video_page?course_id=${w.paid}&cursor=${w.freeVideo}`)).status).toBe(400)
      expect((await get(`/api/video_page?course_id=${w.paid}&limit=0`)).status).toBe(400)
      expect((await get('/api/video_page')).body.data).toEqual({ field: 'course_id' })
    })
  })

  describe('GET /api/course/access', () => {
    it('offers anonymous visitors the preview of a paid course, starting at its first free lesson', async () => {
      const { body } = await get<CourseAccess>(`/api/course/access?course_id=${w.paid}`)
      expect(body.data).toMatchObject({
        course_id: w.paid,
        mode: 'preview',
        login_required: true,
        first_vid: w.freeLesson,
        resume: null,
        progress: null,
      })
    })

    it('offers a free course in full, and an entitled member the whole course with where they left off', async () => {
      expect((await get<CourseAccess>(`/api/course/access?course_id=${w.free}`)).body.data).toMatchObject({
        mode: 'full',
        first_vid: w.freeVideo,
      })
      const member = await makeMember(t().database.db, 'member', clock)
      await grant(t().app, w.admin.headers, member.id, w.paid)
      await post('/api/update_play_data', { vid: w.freeLesson, position: 30 }, member.headers)
      clock = new Date(clock.getTime() + 1000)
      await post('/api/update_play_data', { vid: w.locked, position: 42 }, member.headers)
      const { body } = await get<CourseAccess>(`/api/course/access?course_id=${w.paid}`, member.headers)
      expect(body.data).toMatchObject({
        mode: 'full',
        login_required: false,
        first_vid: w.freeLesson,
        resume: { vid: w.locked, position: 42 },
      })
      // One lesson finished and 42 of 200 s of another: 1.21 of 4 lessons, 30% rounded down.
      expect(body.data.progress).toMatchObject({
        video_count: 4,
        finished_count: 1,
        started_count: 2,
        percent: 30,
        last_vid: w.locked,
      })
    })

    it('answers 404 for an unpublished course and 400 without course_id', async () => {
      expect((await get(`/api/course/access?course_id=${w.hidden}`)).status).toBe(404)
      expect((await get('/api/course/access')).status).toBe(400)
    })
  })
})
