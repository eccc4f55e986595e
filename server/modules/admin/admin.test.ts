import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '#tests/support/app.ts'
import { stepUpHeaders } from '#tests/support/staff.ts'
import { makeMember, multipartFile } from '#tests/support/media-fixtures.ts'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-admin-test-'))
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

type Res<T = Record<string, unknown>> = { code: number; msg: string; data: T }

describe('operator API (/api/admin/*)', () => {
  // No ffprobe here: these tests never need a real video, and one checks the answer when the tool is missing.
  const t = useTestApp({ DATA_DIR: dataDir, VIDEO_UPLOAD_MAX_BYTES: '65536', FFPROBE_PATH: '/nonexistent/ffprobe' })
  let admin: Record<string, string>
  let member: Record<string, string>
  let staff: Record<string, string>

  beforeAll(async () => {
    const { db } = t().database
    admin = (await makeMember(db, 'admin')).headers
    member = (await makeMember(db, 'member')).headers
    // Staff whose roles hold no catalogue permission (an assistant); operators edit the catalogue.
    staff = (await makeMember(db, ['assistant'])).headers
  })

  const call = async <T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: unknown,
    headers = admin,
  ) => {
    const res = await t().app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: res.statusCode, body: res.json<Res<T>>() }
  }
  const post = <T = Record<string, unknown>>(url: string, payload: unknown, headers = admin) =>
    call<T>('POST', url, payload, headers)
  const patch = <T = Record<string, unknown>>(url: string, payload: unknown, headers = admin) =>
    call<T>('PATCH', url, payload, headers)
  const get = <T = Record<string, unknown>>(url: string, headers = admin) => call<T>('GET', url, undefined, headers)

  let categories = 0
  /** A top-level category (siblings never share a name: each call's default differs). */
  async function category(name = `设计${++categories}`) {
    return (await post<{ id: number }>('/api/admin/categories', { name })).body.data.id
  }
  async function course(extra: Record<string, unknown> = {}) {
    const res = await post<{ id: number }>('/api/admin/courses', {
      type: 'series',
      title: '从零学剪辑',
      cover_url: '/media/images/2026/cover.webp',
      category_id: await category(),
      price_fen: 19900,
      ...extra,
    })
    expect(res.body.code).toBe(200)
    return res.body.data.id
  }

  describe('roles', () => {
    it.each([
      ['GET', '/api/admin/categories'],
      ['POST', '/api/admin/courses'],
      ['PATCH', '/api/admin/videos/1'],
      ['POST', '/api/admin/videos/1/upload'],
      ['POST', '/api/admin/entitlements'],
    ] as const)('%s %s answers 301 without a session and 403 to a member or staff', async (method, url) => {
      const payload = method === 'GET' ? undefined : {}
      expect((await call(method, url, payload, {})).body).toMatchObject({ code: 301, msg: '请先登录' })
      expect((await call(method, url, payload, { 'zxb-token': 'x'.repeat(43) })).body).toMatchObject({ code: 301 })
      const forbidden = await call(method, url, payload, member)
      expect(forbidden.status).toBe(403)
      expect(forbidden.body).toEqual({ code: 403, msg: '没有权限', data: {} })
      expect((await call(method, url, payload, staff)).body.code).toBe(403)
    })
  })

  describe('categories', () => {
    it('creates an area and a sub-category, lists and edits them', async () => {
      const area = await post<{ id: number }>('/api/admin/categories', { name: '  视频剪辑  ', sort: 3 })
      expect(area.body).toMatchObject({
        code: 200,
        data: { name: '视频剪辑', parent_id: null, sort: 3, visible: true, icon: null },
      })
      const sub = await post('/api/admin/categories', {
        name: 'Premiere',
        parent_id: area.body.data.id,
        icon: '/media/images/p.webp',
      })
      expect(sub.body).toMatchObject({ code: 200, data: { parent_id: area.body.data.id } })
      const edited = await patch(`/api/admin/categories/${area.body.data.id}`, { visible: false, name: '剪辑' })
      expect(edited.body).toMatchObject({ code: 200, data: { visible: false, name: '剪辑', sort: 3 } })
      const list = await get<{ list: { id: number }[] }>('/api/admin/categories')
      expect(list.body.data.list.map((c) => c.id)).toEqual(
        expect.arrayContaining([area.body.data.id, sub.body.data.id as number]),
      )
    })

    it('keeps two levels and no loops', async () => {
      const area = await category()
      const sub = (await post<{ id: number }>('/api/admin/categories', { name: '子类', parent_id: area })).body.data.id
      expect((await post('/api/admin/categories', { name: '三级', parent_id: sub })).body).toMatchObject({
        code: 400,
        msg: '分类最多两级，上级必须是一级分类',
      })
      expect((await patch(`/api/admin/categories/${area}`, { parent_id: area })).body.msg).toBe('分类不能以自己为上级')
      const other = await category()
      expect((await patch(`/api/admin/categories/${area}`, { parent_id: other })).body.msg).toBe(
        '这个分类下还有子分类，不能再设上级',
      )
    })

    it.each([
      [{}, '请填写名称', 'name'],
      [{ name: '' }, '名称格式不正确', 'name'],
      [{ name: '   ' }, '名称格式不正确', 'name'],
      [{ name: 'x'.repeat(21) }, '名称格式不正确', 'name'],
      [{ name: 123 }, '名称格式不正确', 'name'],
      [{ name: '好', visible: 'yes' }, '是否显示格式不正确', 'visible'],
      [{ name: '好', icon: 'javascript:alert(1)' }, '图标格式不正确', 'icon'],
    ])('refuses %o with 400 naming the field', async (body, msg, field) => {
      const res = await post('/api/admin/categories', body)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ code: 400, msg, data: { field } })
    })

    it('refuses unknown fields, an empty edit, an unknown parent and an unknown id', async () => {
      expect((await post('/api/admin/categories', { name: '好', colour: 'red' })).body.code).toBe(400)
      expect((await patch(`/api/admin/categories/${await category()}`, {})).body).toMatchObject({
        code: 400,
        msg: '请求的内容不完整或格式不正确',
      })
      expect((await post('/api/admin/categories', { name: '好', parent_id: 999999 })).body).toMatchObject({
        code: 404,
        msg: '分类 999999 不存在',
      })
      expect((await patch('/api/admin/categories/999999', { name: '好' })).body).toMatchObject({
        code: 404,
        msg: '分类 999999 不存在',
      })
      expect((await patch('/api/admin/categories/abc', { name: '好' })).status).toBe(400)
    })
  })

  describe('teachers', () => {
    it('creates, edits and lists teachers', async () => {
      const created = await post<{ id: number }>('/api/admin/teachers', { name: '林晓', title: '资深设计师' })
      expect(created.body).toMatchObject({
        code: 200,
        data: { name: '林晓', title: '资深设计师', intro: '', avatar_url: null },
      })
      const id = created.body.data.id
      expect(
        (await patch(`/api/admin/teachers/${id}`, { intro: '十年经验', avatar_url: 'https://cdn.example.com/a.webp' }))
          .body,
      ).toMatchObject({
        data: { id, name: '林晓', intro: '十年经验', avatar_url: 'https://cdn.example.com/a.webp' },
      })
      expect(
        (await get<{ list: { id: number }[] }>('/api/admin/teachers')).body.data.list.some((x) => x.id === id),
      ).toBe(true)
      expect((await patch('/api/admin/teachers/999999', { name: '某' })).body).toMatchObject({
        code: 404,
        msg: '讲师 999999 不存在',
      })
      expect((await post('/api/admin/teachers', { name: 'x'.repeat(31) })).body.msg).toBe('名称格式不正确')
    })
  })

  describe('courses', () => {
    it('creates a course with its price in fen and reads it back', async () => {
      const teacher = (await post<{ id: number }>('/api/admin/teachers', { name: '周野' })).body.data.id
      const id = await course({
        teacher_id: teacher,
        original_price_fen: 29900,
        tags: ['剪辑', '入门'],
        vip_free: true,
        status: 'draft',
      })
      const detail = await get(`/api/admin/courses/${id}`)
      expect(detail.body).toMatchObject({
        code: 200,
        data: {
          id,
          type: 'series',
          title: '从零学剪辑',
          price_fen: 19900,
          original_price_fen: 29900,
          is_free: false,
          vip_free: true,
          status: 'draft',
          teacher_id: teacher,
          tags: ['剪辑', '入门'],
          chapters: [],
          videos: [],
        },
      })
    })

    it.each([
      [{ price_fen: -1 }, '价格格式不正确'],
      [{ price_fen: 9.9 }, '价格格式不正确'],
      [{ price_fen: '19900' }, '价格格式不正确'],
      [{ price_fen: 100_000_001 }, '价格格式不正确'],
      [{ price_fen: undefined }, '请填写价格'],
      [{ type: 'podcast' }, '类型格式不正确'],
      [{ title: '' }, '标题格式不正确'],
      [{ cover_url: 'not a url' }, '封面格式不正确'],
      [{ tags: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'] }, '标签格式不正确'],
      [{ live_starts_at: 'tomorrow' }, '直播开始时间格式不正确'],
    ])('refuses %o with 400', async (change, msg) => {
      const body = {
        type: 'series',
        title: '课',
        cover_url: '/media/c.webp',
        category_id: await category(),
        price_fen: 100,
        ...change,
      }
      const res = await post('/api/admin/courses', body)
      expect(res.status).toBe(400)
      expect(res.body.msg).toBe(msg)
    })

    it('sets and clears the external live stream of a live course', async () => {
      const cat = await category()
      const base = { type: 'live', title: '直播课', cover_url: '/media/c.webp', category_id: cat, price_fen: 0 }
      const created = await post<{ id: number; live_pull_url: string | null }>('/api/admin/courses', {
        ...base,
        live_pull_url: 'https://live.example.com/zixue/room1.m3u8',
      })
      expect(created.body.data.live_pull_url).toBe('https://live.example.com/zixue/room1.m3u8')
      expect((await post('/api/admin/courses', { ...base, live_pull_url: 'rtmp://live.example.com/x' })).status).toBe(
        400,
      )
      const cleared = await patch<{ live_pull_url: string | null }>(`/api/admin/courses/${created.body.data.id}`, {
        live_pull_url: null,
      })
      expect(cleared.body.data.live_pull_url).toBeNull()
    })

    it('checks the rules that span fields, on create and on edit', async () => {
      const cat = await category()
      const base = { type: 'series', title: '课', cover_url: '/media/c.webp', category_id: cat }
      expect((await post('/api/admin/courses', { ...base, price_fen: 100, is_free: true })).body.msg).toBe(
        '免费课程的价格必须为 0',
      )
      // The message is for people; the field it is about travels apart, for the form to put it under that field.
      expect((await post('/api/admin/courses', { ...base, price_fen: 100, original_price_fen: 99 })).body).toEqual({
        code: 400,
        msg: '原价不能低于售价',
        data: { field: 'original_price_fen' },
      })
      expect(
        (
          await post('/api/admin/courses', {
            ...base,
            type: 'live',
            price_fen: 0,
            live_starts_at: '2026-12-01T20:00:00+08:00',
            live_ends_at: '2026-12-01T19:00:00+08:00',
          })
        ).body.msg,
      ).toBe('直播结束时间必须晚于开始时间')
      const id = await course({ original_price_fen: 29900 })
      expect((await patch(`/api/admin/courses/${id}`, { price_fen: 39900 })).body.msg).toBe('原价不能低于售价')
      expect((await patch(`/api/admin/courses/${id}`, { is_free: true })).body.msg).toBe('免费课程的价格必须为 0')
      const free = await patch(`/api/admin/courses/${id}`, { is_free: true, price_fen: 0, original_price_fen: null })
      expect(free.body).toMatchObject({ code: 200, data: { is_free: true, price_fen: 0, original_price_fen: null } })
    })

    it('sets and clears a points price (/course/creditPay)', async () => {
      const id = await course({})
      expect((await patch(`/api/admin/courses/${id}`, { points_price: 1500 })).body).toMatchObject({
        code: 200,
        data: { points_price: 1500 },
      })
      expect((await get<{ points_price: number | null }>(`/api/course?id=${id}`)).body.data.points_price).toBe(1500)
      expect((await patch(`/api/admin/courses/${id}`, { points_price: 0 })).body.msg).toBe('积分价格式不正确')
      expect((await patch(`/api/admin/courses/${id}`, { points_price: null })).body).toMatchObject({
        code: 200,
        data: { points_price: null },
      })
    })

    it('names an unknown category, teacher or course', async () => {
      const base = { type: 'series', title: '课', cover_url: '/media/c.webp', price_fen: 0 }
      expect((await post('/api/admin/courses', { ...base, category_id: 999999 })).body).toMatchObject({
        code: 404,
        msg: '分类 999999 不存在',
      })
      expect(
        (await post('/api/admin/courses', { ...base, category_id: await category(), teacher_id: 999999 })).body,
      ).toMatchObject({
        code: 404,
        msg: '讲师 999999 不存在',
      })
      expect((await get('/api/admin/courses/999999')).body).toMatchObject({
        code: 404,
        msg: '课程 999999 不存在',
      })
      expect((await patch('/api/admin/courses/999999', { title: '新' })).body).toMatchObject({
        code: 404,
        msg: '课程 999999 不存在',
      })
    })

    it('lists courses in pages, sorted, filtered by type, status, category (with its sub-categories) and title', async () => {
      const area = await category('列表一级')
      const sub = (await post<{ id: number }>('/api/admin/categories', { name: '列表二级', parent_id: area })).body.data
        .id
      const ids = []
      for (let i = 0; i < 3; i++)
        ids.push(await course({ category_id: i === 0 ? area : sub, title: `分页课程 ${i}`, price_fen: 100 * (3 - i) }))
      const live = await course({
        category_id: sub,
        type: 'live',
        title: '分页直播',
        status: 'draft',
        live_starts_at: '2026-12-01T12:00:00+08:00',
      })
      type Page = { list: { id: number; title: string }[]; total: number; page: number; page_size: number }
      const first = await get<Page>(`/api/admin/courses?category_id=${area}&page_size=2`)
      expect(first.body.data).toMatchObject({ total: 4, page: 1, page_size: 2 })
      expect(first.body.data.list.map((c) => c.id)).toEqual([live, ids[2]])
      const second = await get<Page>(`/api/admin/courses?category_id=${area}&page_size=2&page=2`)
      expect(second.body.data.list.map((c) => c.id)).toEqual([ids[1], ids[0]])
      // The sub-category alone leaves out the course filed under the area.
      expect((await get<Page>(`/api/admin/courses?category_id=${sub}`)).body.data.total).toBe(3)
      const cheapest = await get<Page>(`/api/admin/courses?category_id=${area}&type=series&sort=price_fen`)
      expect(cheapest.body.data.list.map((c) => c.id)).toEqual([ids[2], ids[1], ids[0]])
      const drafts = await get<Page>(`/api/admin/courses?category_id=${area}&status=draft`)
      expect(drafts.body.data.list.map((c) => c.id)).toEqual([live])
      const schedule = await get<Page>(`/api/admin/courses?type=live&sort=live_starts_at`)
      expect(schedule.body.data.list.map((c) => c.id)).toContain(live)
      const search = await get<Page>(`/api/admin/courses?q=${encodeURIComponent('分页课程 1')}`)
      expect(search.body.data.list.map((c) => c.title)).toEqual(['分页课程 1'])
      expect((await get('/api/admin/courses?page_size=101')).status).toBe(400)
      expect((await get('/api/admin/courses?sort=title')).status).toBe(400)
      expect((await get('/api/admin/courses?type=podcast')).status).toBe(400)

      const csv = await t().app.inject({
        method: 'GET',
        url: `/api/admin/courses?category_id=${area}&sort=price_fen&format=csv`,
        headers: { ...admin, ...stepUpHeaders(admin['zxb-token']!) },
      })
      expect(csv.headers['content-type']).toMatch(/^text\/csv/)
      const lines = csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/)
      expect(lines[0]).toContain('课程ID')
      expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual([ids[2], ids[1], ids[0], live])
      // Without the catalogue permission, the list is refused.
      expect((await get('/api/admin/courses', staff)).body.code).toBe(403)
    })
  })

  describe('chapters and videos', () => {
    it('builds a course from chapters and videos', async () => {
      const id = await course()
      const chapter = await post<{ id: number }>('/api/admin/chapters', {
        course_id: id,
        title: '第一章 基础',
        sort: 1,
      })
      expect(chapter.body).toMatchObject({ code: 200, data: { course_id: id, title: '第一章 基础', sort: 1 } })
      const video = await post<{ id: number }>('/api/admin/videos', {
        course_id: id,
        chapter_id: chapter.body.data.id,
        title: '认识界面',
        free_seconds: 120,
      })
      expect(video.body).toMatchObject({
        code: 200,
        data: {
          course_id: id,
          chapter_id: chapter.body.data.id,
          free_seconds: 120,
          is_free: false,
          duration_seconds: 0,
          media: { status: 'none', playable: false },
        },
      })
      const vid = video.body.data.id
      expect(
        (await patch(`/api/admin/videos/${vid}`, { is_free: true, title: '认识界面（免费）' })).body,
      ).toMatchObject({ data: { is_free: true, title: '认识界面（免费）' } })
      expect((await patch(`/api/admin/chapters/${chapter.body.data.id}`, { title: '第一章' })).body).toMatchObject({
        data: { title: '第一章' },
      })
      const detail = await get<{ chapters: unknown[]; videos: { id: number }[] }>(`/api/admin/courses/${id}`)
      expect(detail.body.data.chapters).toHaveLength(1)
      expect(detail.body.data.videos.map((v) => v.id)).toEqual([vid])
      expect((await get<{ list: unknown[] }>(`/api/admin/videos?course_id=${id}`)).body.data.list).toHaveLength(1)
      expect((await get<{ list: unknown[] }>(`/api/admin/chapters?course_id=${id}`)).body.data.list).toHaveLength(1)
      expect((await get(`/api/admin/videos/${vid}`)).body).toMatchObject({
        code: 200,
        data: { id: vid, media: { video_id: vid, status: 'none' } },
      })
    })

    it('refuses a chapter of another course, unknown ids and bad preview lengths', async () => {
      const a = await course()
      const b = await course()
      const chapterOfB = (await post<{ id: number }>('/api/admin/chapters', { course_id: b, title: '别的章' })).body
        .data.id
      expect(
        (await post('/api/admin/videos', { course_id: a, chapter_id: chapterOfB, title: '课' })).body,
      ).toMatchObject({
        code: 400,
        msg: `章节 ${chapterOfB} 不属于课程 ${a}`,
      })
      expect((await post('/api/admin/videos', { course_id: a, chapter_id: 999999, title: '课' })).body.msg).toBe(
        '章节 999999 不存在',
      )
      expect((await post('/api/admin/videos', { course_id: 999999, title: '课' })).body.msg).toBe('课程 999999 不存在')
      expect((await post('/api/admin/chapters', { course_id: 999999, title: '章' })).body.msg).toBe(
        '课程 999999 不存在',
      )
      expect((await post('/api/admin/videos', { course_id: a, title: '课', free_seconds: -5 })).body.msg).toBe(
        '试看时长格式不正确',
      )
      expect((await post('/api/admin/videos', { course_id: a, title: '课', free_seconds: 86_401 })).body.code).toBe(400)
      expect((await get('/api/admin/videos/999999')).body).toMatchObject({ code: 404, msg: '视频 999999 不存在' })
      expect((await patch('/api/admin/videos/999999', { title: '新' })).body.code).toBe(404)
      expect((await patch('/api/admin/chapters/999999', { title: '新' })).body.msg).toBe('章节 999999 不存在')
      expect((await get('/api/admin/videos?course_id=999999')).body.code).toBe(404)
    })
  })

  describe('POST /api/admin/videos/:id/upload', () => {
    async function video() {
      const c = await course()
      return (await post<{ id: number }>('/api/admin/videos', { course_id: c, title: '上传测试' })).body.data.id
    }
    const upload = (id: number, data: Buffer, field = 'file') => {
      const body = multipartFile(data, 'v.mp4', 'video/mp4', field)
      return t().app.inject({
        method: 'POST',
        url: `/api/admin/videos/${id}/upload`,
        payload: body.payload,
        headers: { ...body.headers, ...admin },
      })
    }
    const mp4Head = Buffer.from('\x00\x00\x00\x20ftypisom\x00\x00\x02\x00', 'latin1')
    const sources = () =>
      fs
        .readdirSync(path.join(dataDir, 'media-private'), { recursive: true })
        .map(String)
        .filter((f) => f.includes('.'))

    it('refuses a file over VIDEO_UPLOAD_MAX_BYTES with 471 and keeps nothing', async () => {
      fs.mkdirSync(path.join(dataDir, 'media-private'), { recursive: true })
      const res = await upload(await video(), Buffer.concat([mp4Head, crypto.randomBytes(100_000)]))
      expect(res.json()).toEqual({ code: 471, msg: '视频文件不能超过 64 KB', data: {} })
      expect(sources()).toEqual([])
    })

    it('answers 503 and keeps nothing when ffprobe is missing on the server', async () => {
      const res = await upload(await video(), Buffer.concat([mp4Head, crypto.randomBytes(2000)]))
      expect(res.statusCode).toBe(503)
      expect(res.json()).toEqual({ code: 503, msg: '服务器暂时不能处理视频（缺少 ffmpeg），请联系技术人员', data: {} })
      expect(sources()).toEqual([])
    })

    it('refuses a text file renamed .mp4 with 470', async () => {
      expect((await upload(await video(), Buffer.from('hello, I am text\n'.repeat(50)))).json()).toMatchObject({
        code: 470,
      })
    })

    it('needs a multipart body with a file field', async () => {
      const id = await video()
      expect((await upload(id, mp4Head, 'video')).json()).toEqual({
        code: 400,
        msg: '请选择要上传的文件',
        data: { field: 'file' },
      })
      const json = await post(`/api/admin/videos/${id}/upload`, { file: 'x' })
      expect(json.body).toMatchObject({ code: 400, msg: '请用 multipart/form-data 上传文件' })
    })

    it('answers 404 for an unknown video and 409 when asked to transcode nothing', async () => {
      expect((await upload(999999, mp4Head)).json()).toMatchObject({ code: 404, msg: '视频 999999 不存在' })
      expect((await post(`/api/admin/videos/${await video()}/transcode`, undefined)).body).toMatchObject({
        code: 409,
        msg: '这个视频还没有上传文件',
      })
    })
  })

  describe('images', () => {
    const png = () =>
      sharp({ create: { width: 64, height: 36, channels: 3, background: '#1f6feb' } })
        .png()
        .toBuffer()
    const send = (url: string, data: Buffer, headers = admin) => {
      const body = multipartFile(data, 'cover.png', 'image/png')
      return t().app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...headers } })
    }

    it('stores an image as WebP under /media/ and serves it', async () => {
      const res = await send('/api/admin/images', await png())
      const data = res.json<Res<{ url: string; width: number; height: number }>>().data
      expect(data).toMatchObject({
        url: expect.stringMatching(/^\/media\/images\/\d{4}\/[0-9a-f]{32}\.webp$/) as string,
        width: 64,
        height: 36,
      })
      const file = await t().app.inject({ method: 'GET', url: data.url })
      expect(file.statusCode).toBe(200)
      expect(file.headers['content-type']).toBe('image/webp')
    })

    it('sets a course cover, and refuses what is not an image', async () => {
      const id = await course()
      const res = await send(`/api/admin/courses/${id}/cover`, await png())
      expect(res.json()).toMatchObject({
        code: 200,
        data: { id, cover_url: expect.stringMatching(/^\/media\/images\//) as string },
      })
      expect((await send(`/api/admin/courses/${id}/cover`, Buffer.from('GIF89a not really'))).json()).toMatchObject({
        code: 450,
      })
      expect((await send('/api/admin/courses/999999/cover', await png())).json()).toMatchObject({ code: 404 })
      expect((await send('/api/admin/images', await png(), member)).json()).toMatchObject({ code: 403 })
    })
  })

  describe('entitlements', () => {
    it('grants, lists and revokes', async () => {
      const { db } = t().database
      const learner = await makeMember(db)
      const id = await course()
      const granted = await post<{ id: number }>('/api/admin/entitlements', {
        member_id: learner.id,
        course_id: id,
        expires_at: '2099-01-01T00:00:00+08:00',
        note: '客服补开',
      })
      expect(granted.body).toMatchObject({
        code: 200,
        data: {
          member_id: learner.id,
          course_id: id,
          source: 'admin',
          expires_at: '2098-12-31T16:00:00.000Z',
          revoked_at: null,
          active: true,
        },
      })
      expect(granted.body.data).toMatchObject({ source_ref: expect.stringMatching(/^admin:\d+ 客服补开$/) as string })
      const list = await get<{ list: { id: number }[] }>(`/api/admin/entitlements?member_id=${learner.id}`)
      expect(list.body.data.list.map((e) => e.id)).toEqual([granted.body.data.id])
      const revoked = await post<{ revoked_at: string }>(
        `/api/admin/entitlements/${granted.body.data.id}/revoke`,
        undefined,
      )
      expect(revoked.body).toMatchObject({
        code: 200,
        data: { active: false, revoked_at: expect.any(String) as string },
      })
      const again = await post(`/api/admin/entitlements/${granted.body.data.id}/revoke`, undefined)
      expect(again.body.data.revoked_at).toBe(revoked.body.data.revoked_at)
    })

    it('names an unknown member or course and refuses a past expiry', async () => {
      const { db } = t().database
      const learner = await makeMember(db)
      const id = await course()
      expect((await post('/api/admin/entitlements', { member_id: 999999, course_id: id })).body).toMatchObject({
        code: 404,
        msg: '会员 999999 不存在',
      })
      expect((await post('/api/admin/entitlements', { member_id: learner.id, course_id: 999999 })).body).toMatchObject({
        code: 404,
        msg: '课程 999999 不存在',
      })
      expect(
        (
          await post('/api/admin/entitlements', {
            member_id: learner.id,
            course_id: id,
            expires_at: '2001-01-01T00:00:00Z',
          })
        ).body,
      ).toMatchObject({
        code: 400,
        msg: '到期时间必须晚于现在',
      })
      expect(
        (await post('/api/admin/entitlements', { member_id: learner.id, course_id: id, expires_at: '明天' })).body.msg,
      ).toBe('到期时间格式不正确')
      expect((await post('/api/admin/entitlements', { member_id: '1', course_id: id })).body.msg).toBe('会员格式不正确')
      expect((await post('/api/admin/entitlements/999999/revoke', undefined)).body).toMatchObject({
        code: 404,
        msg: '授权 999999 不存在',
      })
    })
  })
})
