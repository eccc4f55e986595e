import { describe, expect, it } from 'vitest'
import { vipPlans } from '#server/db/schema/vip.ts'
import { headersOf, settleSimulators, useCommerceApp, type ApiBody } from '#server/modules/payments/testing.ts'
import { makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'

interface Centre {
  plans: { id: number; name: string }[]
  courses: { id: number; vip_free: boolean }[]
  membership: { active: boolean; expires_at: string } | null
}

describe('VIP membership', () => {
  const { t, clock } = useCommerceApp()

  it('GET /api/v2/vip shows the plans to visitors and the running membership to a member after buying; VIP-free courses play', async () => {
    const db = t().database.db
    const [plan] = await db
      .insert(vipPlans)
      .values({ name: '年卡', days: 365, priceFen: 29900, badge: '最划算' })
      .returning()
    const vipCourse = await makeCourse(db, { vipFree: true, priceFen: 19900 })
    const paidCourse = await makeCourse(db, { priceFen: 19900 })
    const vipVideo = await makeVideo(db, vipCourse, { freeSeconds: 30 })
    const paidVideo = await makeVideo(db, paidCourse)
    const m = await makeMember(db)

    const visitor = (await t().app.inject({ method: 'GET', url: '/api/v2/vip' })).json<ApiBody<Centre>>()
    expect(visitor.data.plans.map((p) => p.name)).toEqual(['年卡'])
    expect(visitor.data.courses.map((c) => c.id)).toEqual([vipCourse])
    expect(visitor.data.membership).toBeNull()
    expect((await t().app.services.canWatch(m.id, vipVideo)).until_second).toBe(30)

    const res = await t().app.inject({
      method: 'POST',
      url: '/api/pay/vip',
      headers: headersOf(m.token),
      payload: { plan_id: plan!.id, pay_method: 'wechat_h5' },
    })
    t().app.paymentSimulators!.wechat.pay(res.json<ApiBody<{ order_no: string }>>().data.order_no)
    await settleSimulators(t().app)

    const member = (await t().app.inject({ method: 'GET', url: '/api/v2/vip', headers: headersOf(m.token) })).json<
      ApiBody<Centre>
    >()
    expect(member.data.membership!.active).toBe(true)
    expect(new Date(member.data.membership!.expires_at).getTime() - clock.now().getTime()).toBeGreaterThan(
      364 * 86_400_000,
    )
    expect(await t().app.services.canWatch(m.id, vipVideo)).toEqual({
      allowed: true,
      until_second: null,
      reason: 'entitled',
    })
    expect((await t().app.services.canWatch(m.id, paidVideo)).allowed).toBe(false)

    clock.advance(366 * 86_400_000)
    try {
      // (The session has expired by then too: ask the service.)
      expect((await t().app.services.vip.membership(m.id))!.active).toBe(false)
      expect((await t().app.services.canWatch(m.id, vipVideo)).until_second).toBe(30)
    } finally {
      clock.reset()
    }
  })
})

describe('operators: /api/admin/vip-plans', () => {
  const { t } = useCommerceApp()

  it('adds, lists and withdraws plans; a withdrawn plan cannot be bought; members get 403', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const m = await makeMember(db)
    const call = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, payload?: Record<string, unknown>) =>
      t().app.inject({ method, url, headers: headersOf(token), payload })
    const created = (
      await call('POST', '/api/admin/vip-plans', admin.token, {
        name: '季卡',
        days: 90,
        price_fen: 9900,
        badge: '热门',
      })
    ).json<ApiBody<{ id: number; active: boolean }>>()
    expect(created).toMatchObject({ code: 200, data: { active: true } })
    expect(
      (await call('POST', '/api/admin/vip-plans', admin.token, { name: '坏', days: 0, price_fen: 9900 })).statusCode,
    ).toBe(400)
    expect(
      (await call('POST', '/api/admin/vip-plans', m.token, { name: '越权', days: 30, price_fen: 100 })).statusCode,
    ).toBe(403)
    const patched = (
      await call('PATCH', `/api/admin/vip-plans/${created.data.id}`, admin.token, { active: false })
    ).json<ApiBody<{ active: boolean; price_fen: number }>>()
    expect(patched.data).toMatchObject({ active: false, price_fen: 9900 })
    expect(
      (await call('PATCH', '/api/admin/vip-plans/999999', admin.token, { active: false })).json<ApiBody>().code,
    ).toBe(404)
    const list = (await call('GET', '/api/admin/vip-plans', admin.token)).json<ApiBody<{ list: { id: number }[] }>>()
    expect(list.data.list.map((p) => p.id)).toContain(created.data.id)
    expect(
      (
        await call('POST', '/api/pay/vip', m.token, { plan_id: created.data.id, pay_method: 'wechat_h5' })
      ).json<ApiBody>().code,
    ).toBe(482)
  })

  it('lists the plans as a console list: paged, sorted, by state and name, and as CSV after a step-up', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    await db.insert(vipPlans).values([
      { name: '列表月卡', days: 30, priceFen: 2900, sort: 2 },
      { name: '列表年卡', days: 365, priceFen: 29900, sort: 1, badge: '最划算' },
      { name: '列表旧周卡', days: 7, priceFen: 990, sort: 3, active: false },
    ])
    const get = (query: string) =>
      t().app.inject({ method: 'GET', url: `/api/admin/vip-plans${query}`, headers: headersOf(admin.token) })
    const names = async (query: string) =>
      (await get(query)).json<ApiBody<{ list: { name: string }[]; total: number }>>().data

    expect(await names('?q=列表')).toMatchObject({
      total: 3,
      list: [{ name: '列表年卡' }, { name: '列表月卡' }, { name: '列表旧周卡' }],
    })
    expect(await names('?q=列表&sort=-price_fen&page_size=1')).toMatchObject({ total: 3, list: [{ name: '列表年卡' }] })
    expect(await names('?q=列表&active=false')).toMatchObject({ total: 1, list: [{ name: '列表旧周卡' }] })
    expect(await names('?q=列表月')).toMatchObject({ total: 1, list: [{ name: '列表月卡' }] })

    const withoutStepUp = { method: 'GET' as const, headers: { 'zxb-token': admin.token } }
    const refused = await t().app.inject({ ...withoutStepUp, url: '/api/admin/vip-plans?format=csv' })
    expect(refused.headers['content-type']).not.toContain('text/csv')
    const csv = await get('?q=列表&format=csv&active=true')
    expect(csv.statusCode).toBe(200)
    expect(csv.body.replace(/^\uFEFF/, '').split('\r\n')).toEqual([
      '套餐ID,名称,天数,价格（元）,划线价（元）,角标,在售,排序',
      expect.stringMatching(/^\d+,列表年卡,365,299.00,,最划算,是,1$/),
      expect.stringMatching(/^\d+,列表月卡,30,29.00,,,是,2$/),
      '',
    ])
  })
})
