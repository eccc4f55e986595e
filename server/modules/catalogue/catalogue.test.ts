import { eq, inArray, isNotNull } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { categories, courses, teachers } from '#server/db/schema/catalogue.ts'
import { seedIfEmpty } from '#server/db/seed.ts'
import { useTestApp } from '#tests/support/app.ts'
import type { CategoryNode, CourseCard, CourseDetail, CourseList, TeacherProfile } from '#shared/api/catalogue.ts'
import { clearAllCaches, invalidate } from '#server/http/public-cache.ts'
import { CourseDetailResponse } from './catalogue.schema.ts'

// The seed is the fixture: real demo content, written with a fixed clock so live courses are predictable.
const seededAt = new Date('2026-03-01T04:00:00Z')
let now = new Date(seededAt)

interface Envelope<T> {
  code: number
  msg: string
  data: T
}

describe('catalogue API', () => {
  const t = useTestApp({}, { integrations: { now: () => now } })

  beforeAll(async () => {
    await seedIfEmpty(t().database.db, { info: () => {} }, seededAt)
  })
  beforeEach(() => {
    now = new Date(seededAt)
    clearAllCaches()
  })

  async function get<T>(url: string) {
    const res = await t().app.inject({ method: 'GET', url })
    return { status: res.statusCode, body: res.json<Envelope<T>>() }
  }

  async function courseIdByTitle(title: string) {
    const [row] = await t().database.db.select({ id: courses.id }).from(courses).where(eq(courses.title, title))
    return row!.id
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

  async function walk(query: string, limit: number) {
    const seen: CourseCard[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const qs: string = `${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
      const { body } = await get<CourseList>(`/api/v2/course_list?${qs}`)
      expect(body.code).toBe(200)
      expect(body.data.list.length).toBeLessThanOrEqual(limit)
      seen.push(...body.data.list)
      cursor = body.data.next_cursor
      pages++
    } while (cursor && pages < 100)
    return { seen, pages }
  }

  describe('GET /api/cate and /api/v2/cate', () => {
    it('answers the category tree with sub-categories and course counts', async () => {
      for (const url of ['/api/cate', '/api/v2/cate']) {
        const { status, body } = await get<{ list: CategoryNode[] }>(url)
        expect(status).toBe(200)
        expect(body.code).toBe(200)
        expect(body.data.list.map((c) => c.name)).toEqual(['软件', '办公', '绘画插画', '漫画', '视频剪辑', '设计'])
        const office = body.data.list[1]!
        expect(office.children.map((c) => c.name)).toEqual(['Excel', 'Word', 'PPT'])
        expect(office.icon).toBe('/demo/categories/office.webp')
        expect(office.course_count).toBe(office.children.reduce((n, c) => n + c.course_count, 0))
        expect(office.course_count).toBeGreaterThan(3)
      }
    })
  })

  describe('GET /api/v2/course_list', () => {
    it('answers the first page with cards and a cursor', async () => {
      const { body } = await get<CourseList>('/api/v2/course_list')
      expect(body.code).toBe(200)
      expect(body.data.list).toHaveLength(20)
      expect(body.data.next_cursor).toEqual(expect.any(String))
      const card = body.data.list[0]!
      expect(Object.keys(card).sort()).toEqual(
        [
          'cover',
          'id',
          'is_free',
          'live_starts_at',
          'original_price_fen',
          'price_fen',
          'student_count',
          'subtitle',
          'teacher_name',
          'title',
          'type',
          'vip_free',
        ].sort(),
      )
      // Recommended order: system courses (highest sort) first.
      expect(card.type).toBe('system')
    })

    type Order = (a: CourseCard, b: CourseCard, sortOf: (c: CourseCard) => number) => boolean
    it.each<[string, Order]>([
      ['default', (a, b, sortOf) => sortOf(a) > sortOf(b) || (sortOf(a) === sortOf(b) && a.id < b.id)],
      ['hot', (a, b) => a.student_count > b.student_count || (a.student_count === b.student_count && a.id > b.id)],
      ['price_asc', (a, b) => a.price_fen < b.price_fen || (a.price_fen === b.price_fen && a.id < b.id)],
      ['price_desc', (a, b) => a.price_fen > b.price_fen || (a.price_fen === b.price_fen && a.id > b.id)],
    ])('walks every course exactly once across pages, sorted %s', async (sort, inOrder) => {
      const rows = await t().database.db.select({ id: courses.id, sort: courses.sort }).from(courses)
      const sortOf = (c: CourseCard) => rows.find((r) => r.id === c.id)!.sort
      const { seen, pages } = await walk(`sort=${sort}`, 7)
      expect(seen).toHaveLength(rows.length)
      expect(new Set(seen.map((c) => c.id)).size).toBe(rows.length)
      expect(pages).toBe(Math.ceil(rows.length / 7))
      for (let i = 1; i < seen.length; i++) expect(inOrder(seen[i - 1]!, seen[i]!, sortOf)).toBe(true)
    })

    it('orders sort=new by creation time, newest first, even when timestamps differ only in microseconds', async () => {
      const db = t().database.db
      const ids = (await db.select({ id: courses.id }).from(courses)).map((r) => r.id).slice(0, 3)
      // Three courses a microsecond apart: a cursor that kept only milliseconds would skip or repeat them.
      for (const [i, id] of ids.entries()) {
        await db.execute(`update courses set created_at = '2030-01-01T00:00:00.00000${i}Z' where id = ${id}`)
      }
      const { seen } = await walk('sort=new', 2)
      expect(seen.slice(0, 3).map((c) => c.id)).toEqual([...ids].reverse())
      expect(new Set(seen.map((c) => c.id)).size).toBe(seen.length)
    })

    it('lists a top category with its sub-categories, and a sub-category alone', async () => {
      const { body: tree } = await get<{ list: CategoryNode[] }>('/api/cate')
      const painting = tree.data.list.find((c) => c.name === '绘画插画')!
      const { seen } = await walk(`cate_id=${painting.id}`, 50)
      expect(seen).toHaveLength(painting.course_count)
      const watercolor = painting.children.find((c) => c.name === '水彩')!
      const { seen: only } = await walk(`cate_id=${watercolor.id}`, 50)
      expect(only.map((c) => c.title).sort()).toEqual(['水彩花卉入门', '水彩风景写生'])
    })

    it('filters by type and treats empty parameters as absent', async () => {
      const { seen } = await walk('type=system&cate_id=&sort=', 50)
      expect(seen.length).toBeGreaterThanOrEqual(2)
      expect(seen.every((c) => c.type === 'system')).toBe(true)
    })

    it('leaves hidden courses out', async () => {
      const id = await courseIdByTitle('Excel 一键美化表格')
      await t().database.db.update(courses).set({ status: 'hidden' }).where(eq(courses.id, id))
      try {
        const { seen } = await walk('', 50)
        expect(seen.some((c) => c.id === id)).toBe(false)
      } finally {
        await t().database.db.update(courses).set({ status: 'published' }).where(eq(courses.id, id))
      }
    })

    it.each([
      ['limit=51', 'limit'],
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['cate_id=abc', 'cate_id'],
      ['cate_id=-1', 'cate_id'],
      ['type=video', 'type'],
      ['sort=cheapest', 'sort'],
      ['cursor=not-a-cursor', 'cursor'],
    ])('rejects %s with 400 naming %s', async (qs, field) => {
      const { status, body } = await get(`/api/v2/course_list?${qs}`)
      expect(status).toBe(400)
      expect(body.code).toBe(400)
      expect(body.data).toEqual({ field })
    })

    it('rejects a cursor from another sort with 400', async () => {
      const { body: first } = await get<CourseList>('/api/v2/course_list?sort=hot&limit=5')
      const { status, body } = await get(`/api/v2/course_list?sort=price_asc&limit=5&cursor=${first.data.next_cursor}`)
      expect(status).toBe(400)
      expect(body.data).toEqual({ field: 'cursor' })
    })

    it('answers an unknown category with the 404 code', async () => {
      const { status, body } = await get('/api/v2/course_list?cate_id=999999')
      expect(status).toBe(404)
      expect(body).toEqual({ code: 404, msg: '分类不存在', data: {} })
    })

    it('answers a hidden category, or a sub-category of a hidden one, with the 404 code', async () => {
      const db = t().database.db
      const [child] = await db.select().from(categories).where(isNotNull(categories.parentId)).limit(1)
      const parentId = child!.parentId!
      const list = async (id: number) => (await get(`/api/v2/course_list?cate_id=${id}`)).body.code
      expect([await list(child!.id), await list(parentId)]).toEqual([200, 200])
      try {
        await db.update(categories).set({ visible: false }).where(eq(categories.id, child!.id))
        await invalidate(db, ['categories'])
        expect([await list(child!.id), await list(parentId)]).toEqual([404, 200])
        await db.update(categories).set({ visible: true }).where(eq(categories.id, child!.id))
        await db.update(categories).set({ visible: false }).where(eq(categories.id, parentId))
        await invalidate(db, ['categories'])
        expect([await list(child!.id), await list(parentId)]).toEqual([404, 404])
      } finally {
        await db
          .update(categories)
          .set({ visible: true })
          .where(inArray(categories.id, [child!.id, parentId]))
        await invalidate(db, ['categories'])
      }
    })
  })

  describe('GET /api/course and /api/v2/course', () => {
    it('answers a course with its intro, teacher, chapters and videos', async () => {
      const id = await courseIdByTitle('Photoshop 零基础入门')
      for (const path of ['/api/course', '/api/v2/course']) {
        const { status, body } = await get<CourseDetail>(`${path}?id=${id}`)
        expect(status).toBe(200)
        const c = body.data
        expect(c).toMatchObject({
          id,
          type: 'series',
          title: 'Photoshop 零基础入门',
          cover: '/demo/courses/ps-zero.webp',
          price_fen: 9900,
          original_price_fen: 19900,
          is_free: false,
          vip_free: false,
          category_name: 'Photoshop',
          live_status: null,
          sub_courses: [],
        })
        expect(c.intro).toContain('适合人群')
        expect(c.teacher).toMatchObject({ name: '林晓', avatar: '/demo/teachers/lin-xiao.webp' })
        expect(c.chapters.map((ch) => ch.title)).toEqual(['认识 Photoshop', '选区与抠图', '修图与调色', '综合实战'])
        expect(c.chapters[0]!.videos.map((v) => v.title)).toEqual([
          '界面与工作区',
          '新建文档与画布尺寸',
          '图层的基本概念',
        ])
        expect(c.chapters[0]!.videos[0]).toMatchObject({ is_free: true, free_seconds: 0 })
        expect(c.chapters[0]!.videos[1]).toMatchObject({ is_free: false, free_seconds: 120 })
        const all = c.chapters.flatMap((ch) => ch.videos)
        expect(c.video_count).toBe(12)
        expect(c.duration_seconds).toBe(all.reduce((n, v) => n + v.duration, 0))
      }
    })

    it('lists a system course’s courses in order', async () => {
      const id = await courseIdByTitle('平面设计师系统班')
      const { body } = await get<CourseDetail>(`/api/course?id=${id}`)
      expect(body.data.type).toBe('system')
      expect(body.data.sub_courses.map((c) => c.title)).toEqual([
        'Photoshop 零基础入门',
        'Illustrator 矢量图形设计',
        '平面设计基础：版式与配色',
        'Photoshop 人像精修实战',
      ])
      expect(body.data.sub_courses[0]!.teacher_name).toBe('林晓')
    })

    it('gives a live course its status as of now', async () => {
      const upcoming = await courseIdByTitle('职场 Office 效率直播课')
      const past = await courseIdByTitle('板绘直播：一小时画一张头像')
      expect((await get<CourseDetail>(`/api/course?id=${upcoming}`)).body.data).toMatchObject({
        live_status: 'upcoming',
        video_count: 0,
      })
      expect((await get<CourseDetail>(`/api/course?id=${past}`)).body.data.live_status).toBe('ended')
      const detail = (await get<CourseDetail>(`/api/course?id=${upcoming}`)).body.data
      now = new Date(Date.parse(detail.live_starts_at!) + 60_000)
      expect((await get<CourseDetail>(`/api/course?id=${upcoming}`)).body.data.live_status).toBe('live')
    })

    it('answers from the cache as its schema writes it, and gives page loaders the same course', async () => {
      for (const title of ['平面设计师系统班', '职场 Office 效率直播课']) {
        const id = await courseIdByTitle(title)
        for (let hit = 0; hit < 2; hit++) {
          const res = await t().app.inject({ method: 'GET', url: `/api/course?id=${id}` })
          expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
          const body = res.json<Envelope<CourseDetail>>()
          // Nothing the schema would leave out, nothing it would change.
          expect(CourseDetailResponse.parse(body)).toStrictEqual(body)
          expect(body.data).toStrictEqual(await t().app.services.catalogue.courseDetail(id))
        }
      }
    })

    it('reads a course with one SQL statement', async () => {
      const id = await courseIdByTitle('平面设计师系统班')
      expect(await countQueries(() => get(`/api/course?id=${id}`))).toBe(1)
      // …and serves repeats from the short cache.
      expect(await countQueries(() => get(`/api/course?id=${id}`))).toBe(0)
    })

    it('rejects a non-numeric id with 400 naming the field, and a missing one', async () => {
      const bad = await get('/api/course?id=abc')
      expect(bad.status).toBe(400)
      expect(bad.body.msg).toBe('编号格式不正确')
      const missing = await get('/api/course')
      expect(missing.status).toBe(400)
      expect(missing.body.msg).toContain('')
      expect((await get('/api/course?id=1001.html')).status).toBe(400)
    })

    it('answers an unknown or hidden course with the 404 code', async () => {
      expect((await get('/api/course?id=999999')).body).toEqual({ code: 404, msg: '课程不存在或已下架', data: {} })
      const id = await courseIdByTitle('工作汇报 PPT 速成')
      await t().database.db.update(courses).set({ status: 'hidden' }).where(eq(courses.id, id))
      try {
        const { status, body } = await get(`/api/course?id=${id}`)
        expect(status).toBe(404)
        expect(body.code).toBe(404)
      } finally {
        await t().database.db.update(courses).set({ status: 'published' }).where(eq(courses.id, id))
      }
    })
  })

  describe('GET /api/course/teacher', () => {
    it('answers the teacher of a course', async () => {
      const id = await courseIdByTitle('Excel 函数与公式实战')
      const { body } = await get(`/api/course/teacher?course_id=${id}`)
      expect(body.code).toBe(200)
      expect(body.data).toMatchObject({
        name: '王一帆',
        title: '微软 Office 认证讲师 · 数据分析师',
        avatar: '/demo/teachers/wang-yifan.webp',
      })
    })

    it('answers 404 for an unknown course and 400 for a bad id', async () => {
      expect((await get('/api/course/teacher?course_id=999999')).body.code).toBe(404)
      const bad = await get('/api/course/teacher?course_id=x')
      expect(bad.status).toBe(400)
      expect(bad.body.data).toEqual({ field: 'course_id' })
    })
  })

  describe('GET /api/teacher', () => {
    it('answers a teacher with their courses and totals', async () => {
      const [row] = await t().database.db.select({ id: teachers.id }).from(teachers).where(eq(teachers.name, '周野'))
      const { body } = await get<TeacherProfile>(`/api/teacher?id=${row!.id}`)
      expect(body.code).toBe(200)
      expect(body.data.name).toBe('周野')
      expect(body.data.courses.length).toBe(body.data.course_count)
      expect(body.data.course_count).toBeGreaterThanOrEqual(5)
      expect(body.data.student_count).toBe(body.data.courses.reduce((n, c) => n + c.student_count, 0))
      expect(body.data.courses.every((c) => c.teacher_name === '周野')).toBe(true)
      expect(body.data.courses[0]!.type).toBe('system')
    })

    it('answers 404 for an unknown teacher and 400 for a bad id', async () => {
      expect((await get('/api/teacher?id=999999')).body).toEqual({ code: 404, msg: '讲师不存在', data: {} })
      expect((await get('/api/teacher?id=1e3')).status).toBe(400)
    })
  })

  describe('catalogue.teachers() (the /teacher page)', () => {
    it('lists every teacher in order with their course counts', async () => {
      const list = await t().app.services.catalogue.teachers()
      expect(list.length).toBeGreaterThanOrEqual(6)
      expect(list[0]).toMatchObject({ name: '林晓', avatar: '/demo/teachers/lin-xiao.webp' })
      const total = list.reduce((n, x) => n + x.course_count, 0)
      const { length } = await t().database.db.select({ id: courses.id }).from(courses)
      expect(total).toBe(length)
    })
  })

  describe('GET /api/hotWords', () => {
    it('answers the hot words in order', async () => {
      const { body } = await get<{ list: { id: number; word: string }[] }>('/api/hotWords')
      expect(body.data.list.length).toBeGreaterThanOrEqual(10)
      expect(body.data.list[0]!.word).toBe('Photoshop')
    })
  })
})

describe('catalogue in the OpenAPI document', () => {
  const t = useTestApp()

  it('documents every catalogue path with its query parameters', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/openapi.json' })
    const doc = res.json<{ paths: Record<string, { get?: { parameters?: { name: string }[] } }> }>()
    for (const path of [
      '/api/cate',
      '/api/v2/cate',
      '/api/v2/course_list',
      '/api/course',
      '/api/v2/course',
      '/api/course/teacher',
      '/api/teacher',
      '/api/hotWords',
    ]) {
      expect(doc.paths[path]?.get, path).toBeDefined()
    }
    expect(doc.paths['/api/v2/course_list']!.get!.parameters!.map((p) => p.name).sort()).toEqual([
      'cate_id',
      'cursor',
      'limit',
      'sort',
      'type',
      'vip_free',
    ])
  })
})
