import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { staffActions } from '#server/db/schema/audit.ts'
import { jobs } from '#server/db/schema/jobs.ts'
import { videoMedia } from '#server/db/schema/media.ts'
import { memberRoles } from '#server/db/schema/members.ts'
import { useTestApp } from '#tests/support/app.ts'
import { stepUpHeaders } from '#tests/support/staff.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-admin-media-test-'))
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

type Res<T = unknown> = { code: number; msg: string; data: T }
interface Row {
  id: number
  title: string
  course: { id: number; title: string }
  chapter: { id: number; title: string } | null
  media: { status: string; progress: number; rendition_progress: { name: string; percent: number }[] }
}
interface Page {
  list: Row[]
  total: number
}

const rendition = (name: string, height: number) => ({ name, width: (height * 16) / 9, height, bandwidth: 1 })

/** The console's media screen (GET /api/admin/media), retrying a failed transcode, and the staff preview. */
describe('media in the operator console', () => {
  const t = useTestApp({ DATA_DIR: dataDir })
  let operator: Awaited<ReturnType<typeof makeMember>>
  let learner: Awaited<ReturnType<typeof makeMember>>
  let finance: Awaited<ReturnType<typeof makeMember>>
  let course: number
  let other: number
  const v: Record<'ready' | 'failed' | 'transcoding' | 'none' | 'elsewhere', number> = {
    ready: 0,
    failed: 0,
    transcoding: 0,
    none: 0,
    elsewhere: 0,
  }

  const call = async <T>(method: string, url: string, headers: Record<string, string>, payload?: object) => {
    const res = await t().app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) })
    return {
      status: res.statusCode,
      get body() {
        return res.json<Res<T>>()
      },
      raw: res,
    }
  }
  const list = async (query: string) => {
    const res = await call<Page>('GET', `/api/admin/media?${query}`, operator.headers)
    expect(res.body.code, res.body.msg).toBe(200)
    return res.body.data
  }

  beforeAll(async () => {
    const { db } = t().database
    operator = await makeMember(db, ['operator'])
    learner = await makeMember(db, 'member')
    finance = await makeMember(db, ['finance'])
    const post = async <T>(url: string, body: object) => (await call<T>('POST', url, operator.headers, body)).body.data
    const category = await post<{ id: number }>('/api/admin/categories', { name: '剪辑' })
    const makeCourse = (title: string) =>
      post<{ id: number }>('/api/admin/courses', {
        type: 'series',
        title,
        cover_url: '/media/images/2026/cover.webp',
        category_id: category.id,
        price_fen: 9900,
        status: 'published',
      })
    course = (await makeCourse('达芬奇调色')).id
    other = (await makeCourse('剪映入门')).id
    const chapter = await post<{ id: number }>('/api/admin/chapters', { course_id: course, title: '第一章 基础' })
    const video = async (course_id: number, title: string, chapter_id?: number) =>
      (await post<{ id: number }>('/api/admin/videos', { course_id, title, ...(chapter_id ? { chapter_id } : {}) })).id
    v.ready = await video(course, '一级调色', chapter.id)
    v.failed = await video(course, '二级调色', chapter.id)
    v.transcoding = await video(course, '调色节点')
    v.none = await video(course, '输出设置')
    v.elsewhere = await video(other, '剪映界面')

    const now = new Date()
    const base = { sourceKey: 'sources/x/a.mp4', sourceName: 'a.mp4', createdAt: now, updatedAt: now }
    const ladder = [rendition('360p', 360), rendition('720p', 720)]
    // A ready video plays: its HLS output (a master playlist is enough for these tests) and key are stored.
    const prefix = `hls/${v.ready}/${crypto.randomBytes(4).toString('hex')}`
    fs.mkdirSync(path.join(dataDir, 'media-private', prefix), { recursive: true })
    fs.writeFileSync(
      path.join(dataDir, 'media-private', prefix, 'master.m3u8'),
      '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=640x360\n360p/index.m3u8\n',
    )
    await db.insert(videoMedia).values([
      {
        ...base,
        videoId: v.ready,
        status: 'ready',
        progress: 100,
        hlsPrefix: prefix,
        keyBytes: crypto.randomBytes(16),
        renditions: ladder,
        plannedRenditions: ladder,
        duration: 14,
      },
      { ...base, videoId: v.failed, status: 'failed', error: '转码失败：源文件不见了，请重新上传' },
      { ...base, videoId: v.transcoding, status: 'transcoding', progress: 40, plannedRenditions: ladder },
    ])
  })

  describe('GET /api/admin/media', () => {
    it('lists every video with its course, chapter and state, newest first, with the total', async () => {
      const page = await list('page_size=3')
      expect(page.total).toBe(5)
      expect(page.list.map((r) => r.id)).toEqual([v.elsewhere, v.none, v.transcoding])
      const all = await list('page_size=10')
      const ready = all.list.find((r) => r.id === v.ready)!
      expect(ready).toMatchObject({
        title: '一级调色',
        course: { id: course, title: '达芬奇调色' },
        chapter: { title: '第一章 基础' },
        media: { status: 'ready' },
      })
      expect(all.list.find((r) => r.id === v.none)).toMatchObject({ chapter: null, media: { status: 'none' } })
    })

    it('shows each rendition of a running transcoding with its progress', async () => {
      const [row] = (await list(`video=${v.transcoding}`)).list
      expect(row!.media).toMatchObject({
        status: 'transcoding',
        progress: 40,
        rendition_progress: [
          { name: '360p', percent: 40 },
          { name: '720p', percent: 40 },
        ],
      })
    })

    it('filters by course, state (none too), one video and part of the title; sorts by title', async () => {
      const ids = async (q: string) => (await list(q)).list.map((r) => r.id)
      expect(await ids(`course_id=${other}`)).toEqual([v.elsewhere])
      expect(await ids('state=failed')).toEqual([v.failed])
      expect(await ids('state=none')).toEqual([v.elsewhere, v.none])
      expect(await ids(`state=none&course_id=${course}`)).toEqual([v.none])
      expect(await ids('state=ready')).toEqual([v.ready])
      expect(await ids(`video=${v.ready}`)).toEqual([v.ready])
      expect(await ids('q=调色')).toEqual([v.transcoding, v.failed, v.ready])
      expect(await ids('q=%25')).toEqual([])
      expect(await ids(`course_id=${course}&sort=title`)).toEqual([v.ready, v.failed, v.transcoding, v.none])
      expect((await list('state=failed')).total).toBe(1)
    })

    it('exports what the filter shows as CSV, after a fresh SMS code', async () => {
      const url = `/api/admin/media?format=csv&course_id=${course}&state=failed`
      expect((await call('GET', url, operator.headers)).body.code).toBe(407)
      const res = await call('GET', url, { ...operator.headers, ...stepUpHeaders(operator.token) })
      expect(res.raw.headers['content-type']).toMatch(/^text\/csv/)
      const lines = res.raw.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/)
      expect(lines[0]).toContain('视频ID')
      expect(lines).toHaveLength(2)
      expect(lines[1]).toContain('二级调色')
      expect(lines[1]).toContain('转码失败')
    })

    it('refuses staff without the catalogue (finance) and learners, and checks the filters', async () => {
      expect((await call('GET', '/api/admin/media', finance.headers)).status).toBe(403)
      expect((await call('GET', '/api/admin/media', learner.headers)).status).toBe(403)
      const bad = await call('GET', '/api/admin/media?state=lost', operator.headers)
      expect(bad.status).toBe(400)
      expect(bad.body.data).toEqual({ field: 'state' })
    })
  })

  describe('POST /api/admin/videos/:id/transcode (retry)', () => {
    it('queues a failed transcode again, clears its error and records who did it', async () => {
      const { db } = t().database
      const res = await call<{ status: string; error: string | null }>(
        'POST',
        `/api/admin/videos/${v.failed}/transcode`,
        operator.headers,
      )
      expect(res.body).toMatchObject({ code: 200, data: { status: 'uploaded', error: null } })
      const queued = await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.singletonKey, `transcode:${v.failed}`), eq(jobs.status, 'queued')))
      expect(queued).toHaveLength(1)
      expect((await list('state=failed')).total).toBe(0)
      await expect
        .poll(async () =>
          db
            .select({ route: staffActions.route, code: staffActions.code })
            .from(staffActions)
            .where(eq(staffActions.memberId, operator.id)),
        )
        .toContainEqual({ route: '/api/admin/videos/:id/transcode', code: 200 })
      // Once queued, a second retry while it waits is fine (the queue keeps one job per video); nothing to retry
      // without an upload.
      const none = await call('POST', `/api/admin/videos/${v.none}/transcode`, operator.headers)
      expect(none.body).toMatchObject({ code: 409, msg: '这个视频还没有上传文件' })
      expect((await call('POST', `/api/admin/videos/${v.failed}/transcode`, finance.headers)).status).toBe(403)
    })
  })

  describe('the staff preview (GET /api/video/play, decided by the access function)', () => {
    it('refuses a learner without access, gives an operator a signed URL whose playlist opens', async () => {
      const refused = await call('GET', `/api/video/play?vid=${v.ready}`, learner.headers)
      expect(refused.body).toMatchObject({ code: 474 })
      expect((await call('GET', `/api/video/play?vid=${v.ready}`, finance.headers)).body).toMatchObject({ code: 474 })

      const play = await call<{ master_url: string; until_second: number | null }>(
        'GET',
        `/api/video/play?vid=${v.ready}`,
        operator.headers,
      )
      expect(play.body).toMatchObject({ code: 200, data: { until_second: null } })
      const url = play.body.data.master_url
      expect(url).toMatch(new RegExp(`^/media/hls/${v.ready}/master\\.m3u8\\?.*mid=${operator.id}.*sig=`))
      const master = await t().app.inject({ method: 'GET', url })
      expect(master.statusCode).toBe(200)
      expect(master.body).toContain(`/media/hls/${v.ready}/360p/index.m3u8?`)

      // The playlist asks the access function again: without the role the same signed URL is refused.
      const { db } = t().database
      await db.delete(memberRoles).where(eq(memberRoles.memberId, operator.id))
      try {
        const after = await t().app.inject({ method: 'GET', url })
        expect(after.json()).toMatchObject({ code: 403, msg: '没有观看权限' })
      } finally {
        await db.insert(memberRoles).values({ memberId: operator.id, role: 'operator' })
      }
    })
  })
})
