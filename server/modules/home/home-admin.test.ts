import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { staffActions } from '#server/db/schema/audit.ts'
import { until } from '#server/modules/payments/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'

type Res<T = Record<string, unknown>> = { code: number; msg: string; data: T }
interface Section {
  id: number
  kind: string
  title: string
  visible: boolean
  sort: number
}
interface Feed {
  sections: { id: number; title: string; courses: { id: number }[]; items: { id: number; link: string | null }[] }[]
}

describe('home feed in the operators console (/api/admin/home/)', () => {
  const t = useTestApp()
  let admin: Awaited<ReturnType<typeof makeMember>>
  let learner: Record<string, string>

  const call = async <T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = admin.headers,
  ) => {
    const res = await t().app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: res.statusCode, body: res.json<Res<T>>() }
  }
  /** The feed a learner's home page reads (GET /api/v3/index, cached for a few seconds). */
  const feed = async () => (await call<Feed>('GET', '/api/v3/index', undefined, {})).body.data.sections

  beforeAll(async () => {
    admin = await makeMember(t().database.db, 'admin')
    learner = (await makeMember(t().database.db)).headers
  })

  it.each([
    ['GET', '/api/admin/home/sections'],
    ['POST', '/api/admin/home/sections'],
    ['PATCH', '/api/admin/home/sections/1'],
    ['DELETE', '/api/admin/home/sections/1'],
    ['POST', '/api/admin/home/items'],
  ] as const)('%s %s refuses members and strangers', async (method, url) => {
    const payload = method === 'GET' || method === 'DELETE' ? undefined : {}
    expect((await call(method, url, payload, {})).body.code).toBe(301)
    expect((await call(method, url, payload, learner)).status).toBe(403)
  })

  it('builds a section, publishes it, and learners see each change at once', async () => {
    const { db } = t().database
    const c1 = await makeCourse(db, { title: '剪辑入门', status: 'published' })
    const c2 = await makeCourse(db, { title: '调色进阶', status: 'published' })
    expect(await feed()).toEqual([]) // read once: the feed is now cached

    const bad = await call('POST', '/api/admin/home/sections', { kind: 'carousel', title: '推荐' })
    expect(bad).toMatchObject({ status: 400, body: { msg: '类型格式不正确' } })
    const badLink = await call('POST', '/api/admin/home/sections', {
      kind: 'courses',
      title: '推荐',
      more_link: 'javascript:alert(1)',
    })
    expect(badLink.body.msg).toBe('“更多”链接格式不正确')

    const created = await call<Section>('POST', '/api/admin/home/sections', { kind: 'courses', title: '新课推荐' })
    expect(created.body.data).toMatchObject({ kind: 'courses', title: '新课推荐', visible: false })
    const section = created.body.data.id
    const noCourse = await call('POST', '/api/admin/home/items', { section_id: section })
    expect(noCourse.body).toMatchObject({ code: 400, msg: '请选择课程' })
    const unknown = await call('POST', '/api/admin/home/items', { section_id: section, course_id: 999999 })
    expect(unknown.body.code).toBe(404)
    const i1 = await call<{ id: number; course_title: string }>('POST', '/api/admin/home/items', {
      section_id: section,
      course_id: c1,
    })
    expect(i1.body.data.course_title).toBe('剪辑入门')
    const i2 = await call<{ id: number }>('POST', '/api/admin/home/items', { section_id: section, course_id: c2 })
    expect(await feed()).toEqual([]) // not published yet

    await call('PATCH', `/api/admin/home/sections/${section}`, { visible: true })
    expect((await feed()).map((s) => [s.title, s.courses.map((c) => c.id)])).toEqual([['新课推荐', [c1, c2]]])

    const wrongOrder = await call('POST', `/api/admin/home/sections/${section}/items/order`, { ids: [i2.body.data.id] })
    expect(wrongOrder.body).toMatchObject({ code: 400, msg: '排序必须列出全部项目，且每项一次' })
    const reordered = await call('POST', `/api/admin/home/sections/${section}/items/order`, {
      ids: [i2.body.data.id, i1.body.data.id],
    })
    expect(reordered.body.code).toBe(200)
    expect((await feed())[0]!.courses.map((c) => c.id)).toEqual([c2, c1])

    // A banner section before it.
    const banners = (await call<Section>('POST', '/api/admin/home/sections', { kind: 'banner', visible: true })).body
      .data.id
    const noImage = await call('POST', '/api/admin/home/items', { section_id: banners, link: '/vip' })
    expect(noImage.body).toMatchObject({ code: 400, msg: '请上传图片' })
    const banner = await call<{ id: number }>('POST', '/api/admin/home/items', {
      section_id: banners,
      title: 'VIP 限时',
      image_url: '/media/images/2026/vip.webp',
      link: '/vip',
    })
    expect(banner.body.code).toBe(200)
    await call('POST', '/api/admin/home/sections/order?feed=v3', { ids: [banners, section] })
    expect((await feed()).map((s) => s.id)).toEqual([banners, section])
    const relinked = await call<{ title: string }>('PATCH', `/api/admin/home/items/${banner.body.data.id}`, {
      link: 'https://example.com/sale',
    })
    expect((await feed())[0]!.items[0]!.link).toBe('https://example.com/sale')
    // A PATCH changes what it names: the title it left out stays.
    expect(relinked.body.data.title).toBe('VIP 限时')
    for (const url of [`/api/admin/home/items/${banner.body.data.id}`, `/api/admin/home/sections/${banners}`])
      expect((await call('PATCH', url, {})).body).toMatchObject({ code: 400 })

    await call('PATCH', `/api/admin/home/sections/${section}`, { visible: false })
    expect((await feed()).map((s) => s.id)).toEqual([banners])
    expect((await call('DELETE', `/api/admin/home/sections/${banners}`)).body.code).toBe(200)
    expect(await feed()).toEqual([])
    expect((await call('DELETE', `/api/admin/home/sections/${banners}`)).body.code).toBe(404)

    // Every change is in the staff action log.
    const logged = () => db.select().from(staffActions).where(eq(staffActions.memberId, admin.id))
    await until(async () => (await logged()).some((a) => a.method === 'DELETE' && a.code === 404))
    const routes = new Set((await logged()).map((a) => `${a.method} ${a.route}`))
    for (const r of [
      'POST /api/admin/home/sections',
      'PATCH /api/admin/home/sections/:id',
      'DELETE /api/admin/home/sections/:id',
      'POST /api/admin/home/items',
      'PATCH /api/admin/home/items/:id',
      'POST /api/admin/home/sections/order',
      'POST /api/admin/home/sections/:id/items/order',
    ])
      expect(routes).toContain(r)
  })

  it('refuses a course section without a title (create or edit), and takes a banner without one', async () => {
    for (const kind of ['courses', 'grid', 'ranking']) {
      const res = await call('POST', '/api/admin/home/sections', { kind, title: '  ', visible: true })
      expect(res).toEqual({
        status: 400,
        body: { code: 400, msg: '请填写标题（课程栏目在首页显示标题）', data: { field: 'title' } },
      })
    }
    const banner = await call<Section>('POST', '/api/admin/home/sections', { kind: 'banner' })
    expect(banner.body.data).toMatchObject({ kind: 'banner', title: '', visible: false })
    const titled = await call<Section>('POST', '/api/admin/home/sections', { kind: 'courses', title: '新课推荐' })
    const cleared = await call('PATCH', `/api/admin/home/sections/${titled.body.data.id}`, { title: '' })
    expect(cleared.body).toEqual({ code: 400, msg: '请填写标题（课程栏目在首页显示标题）', data: { field: 'title' } })
  })
})
