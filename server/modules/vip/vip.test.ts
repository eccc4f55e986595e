import { describe, expect, it } from 'vitest'
import { categories, courses } from '#server/db/schema/catalogue.ts'
import { vipPlans } from '#server/db/schema/vip.ts'
import { useTestApp } from '#tests/support/app.ts'
import { cacheBusHeard } from '#tests/support/cache-bus.ts'
import { headersOf } from '#server/modules/payments/testing.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'

describe('vip.centre()', () => {
  const t = useTestApp()

  it('lists the active plans in order and only published VIP-free courses', async () => {
    const { db } = t().database
    const [cat] = await db.insert(categories).values({ name: '设计' }).returning()
    await db.insert(vipPlans).values([
      { name: '年卡', days: 365, priceFen: 29900, originalPriceFen: 69900, sort: 3, badge: '最划算' },
      { name: '月卡', days: 30, priceFen: 3900, sort: 1 },
      { name: '停售', days: 7, priceFen: 990, sort: 0, active: false },
    ])
    const base = { type: 'series' as const, coverUrl: '/c.webp', categoryId: cat!.id, priceFen: 9900 }
    await db.insert(courses).values([
      { ...base, title: 'VIP 课 A', vipFree: true, studentCount: 10 },
      { ...base, title: 'VIP 课 B', vipFree: true, studentCount: 50 },
      { ...base, title: '普通课', vipFree: false },
      { ...base, title: '草稿', vipFree: true, status: 'draft' },
    ])

    const centre = await t().app.services.vip.centre()

    expect(centre.plans.map((p) => p.name)).toEqual(['月卡', '年卡'])
    expect(centre.plans[1]).toMatchObject({ days: 365, price_fen: 29900, original_price_fen: 69900, badge: '最划算' })
    expect(centre.courses.map((c) => c.title)).toEqual(['VIP 课 B', 'VIP 课 A'])
    expect(centre.courses.every((c) => c.vip_free)).toBe(true)
  })
})

describe('vip.centre() kept in memory', () => {
  const t = useTestApp()

  it('answers from memory, and shows a plan an operator writes at once', async () => {
    const { db } = t().database
    const admin = await makeMember(db, 'admin')
    const names = async () => (await t().app.services.vip.centre()).plans.map((p) => p.name)
    const write = (method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown>) =>
      t().app.inject({ method, url, headers: headersOf(admin.token), payload })
    const created = await write('POST', '/api/admin/vip-plans', { name: '缓存月卡', days: 30, price_fen: 3900 })
    const id = created.json<{ data: { id: number } }>().data.id
    await cacheBusHeard(db)
    expect(await names()).toEqual(['缓存月卡'])

    // A plan added behind the service's back is not seen: the second read came from memory.
    await db.insert(vipPlans).values({ name: '库里直接加', days: 7, priceFen: 990 })
    expect(await names()).toEqual(['缓存月卡'])

    // An operator's change drops it (and the next read sees the row added meanwhile too).
    expect((await write('PATCH', `/api/admin/vip-plans/${id}`, { name: '缓存季卡' })).statusCode).toBe(200)
    expect((await names()).sort()).toEqual(['库里直接加', '缓存季卡'].sort())
  })
})

describe('GET /api/vip/course_list and /api/vip/contact', () => {
  const t = useTestApp({ CONSULT_URL: 'https://example.com/consult', SERVICE_URL: 'https://example.com/service' })

  it('pages through the published VIP-free courses only', async () => {
    const { db } = t().database
    const [cat] = await db.insert(categories).values({ name: '办公' }).returning()
    const base = { type: 'series' as const, coverUrl: '/c.webp', categoryId: cat!.id, priceFen: 9900 }
    await db.insert(courses).values([
      { ...base, title: 'VIP 一', vipFree: true, studentCount: 30 },
      { ...base, title: 'VIP 二', vipFree: true, studentCount: 20 },
      { ...base, title: 'VIP 三', vipFree: true, studentCount: 10 },
      { ...base, title: '付费课', vipFree: false, studentCount: 99 },
      { ...base, title: 'VIP 草稿', vipFree: true, status: 'draft' },
    ])
    const first = await t().app.inject({ method: 'GET', url: '/api/vip/course_list?sort=hot&limit=2' })
    const page1 = first.json<{ code: number; data: { list: { title: string }[]; next_cursor: string | null } }>()
    expect(page1.code).toBe(200)
    expect(page1.data.list.map((c) => c.title)).toEqual(['VIP 一', 'VIP 二'])
    const second = await t().app.inject({
      method: 'GET',
      url: `/api/vip/course_list?sort=hot&limit=2&cursor=${encodeURIComponent(page1.data.next_cursor!)}`,
    })
    const page2 = second.json<{ data: { list: { title: string }[]; next_cursor: string | null } }>()
    expect(page2.data.list.map((c) => c.title)).toEqual(['VIP 三'])
    expect(page2.data.next_cursor).toBeNull()
  })

  it('refuses a limit over 50 naming the field', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/vip/course_list?limit=500' })
    expect(res.statusCode).toBe(400)
    expect(res.json<{ data: unknown }>().data).toEqual({ field: 'limit' })
  })

  it('gives the consult and service links', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/vip/contact' })
    expect(res.json()).toEqual({
      code: 200,
      msg: 'ok',
      data: { consult_url: 'https://example.com/consult', service_url: 'https://example.com/service' },
    })
  })
})
