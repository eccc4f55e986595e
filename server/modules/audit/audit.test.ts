import { describe, expect, it } from 'vitest'
import { auditBody } from '#server/http/staff-audit.ts'
import { actionKey, actionName, namedActions } from './action-names.ts'
import { headersOf, paidCourse, useCommerceApp, type ApiBody } from '#server/modules/payments/testing.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'

interface Action {
  member_id: number
  action: string
  details: string
  result: string
  method: string
  route: string
  params: Record<string, unknown> | null
  body: unknown
  status: number
  code: number | null
}

describe('staff actions (GET /api/admin/staff-actions)', () => {
  const { t } = useCommerceApp()

  const call = async <T>(
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    token: string,
    payload?: Record<string, unknown>,
  ) => {
    const res = await t().app.inject({ method, url, headers: headersOf(token), payload })
    return { res, body: res.json<ApiBody<T>>() }
  }

  /** Audit rows are written after the answer is sent: waits for `count` of them. */
  async function actions(token: string, query: string, count = 1) {
    let list: Action[] = []
    for (let i = 0; i < 100 && list.length < count; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 20))
      list = (await call<{ list: Action[] }>('GET', `/api/admin/staff-actions${query}`, token)).body.data.list
    }
    return list
  }

  it('records who changed what and how it ended; reads are not recorded', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const member = await makeMember(db)
    await call('GET', '/api/admin/vip-plans', admin.token)
    const made = await call<{ id: number }>('POST', '/api/admin/vip-plans', admin.token, {
      name: '周卡',
      days: 7,
      price_fen: 990,
    })
    expect(made.body.code).toBe(200)
    await call('POST', '/api/admin/points/adjust', admin.token, { member_id: member.id, delta: -5, note: '扣到负数' })

    const all = await actions(admin.token, `?q=${admin.id}`, 2)
    expect(await actions(admin.token, '?route=/api/admin/points', 1)).toHaveLength(1)
    // Each is written once its answer has gone out, so the two may land in either order.
    const byRoute = (route: string) => all.find((a) => a.route === route)!
    expect(all.map((a) => [a.method, a.route, a.code]).sort()).toEqual([
      ['POST', '/api/admin/points/adjust', 499],
      ['POST', '/api/admin/vip-plans', 200],
    ])
    expect(byRoute('/api/admin/vip-plans')).toMatchObject({
      member_id: admin.id,
      status: 200,
      body: { name: '周卡', days: 7, price_fen: 990 },
    })
    expect(byRoute('/api/admin/points/adjust').body).toMatchObject({ member_id: member.id, delta: -5 })
    // Each reads as what happened: its name, and the fields that matter instead of the JSON sent.
    expect(byRoute('/api/admin/points/adjust')).toMatchObject({
      action: '调整积分',
      details: `会员 ${member.nickname}（${member.phone}） · 积分 -5 · 原因：扣到负数`,
    })
    expect(byRoute('/api/admin/vip-plans')).toMatchObject({
      action: '新增 VIP 套餐',
      details: '「周卡」 · 价格 ¥9.9 · 7 天',
      result: '成功',
    })
  })

  it('describes a refund decision by its member and the amount asked for', async () => {
    const db = t().database.db
    const [admin, finance] = [await makeMember(db, 'admin'), await makeMember(db, ['finance'])]
    const { m, orderNo } = await paidCourse(t, { priceFen: 3990 })
    const asked = await call<{ refund_no: string }>('POST', '/api/refunds', m.token, {
      order_no: orderNo,
      reason: '买错了',
    })
    const refundNo = asked.body.data.refund_no
    await call('POST', `/api/admin/refunds/${refundNo}/reject`, finance.token, { note: '已学习过半' })
    const [rejected] = await actions(admin.token, `?q=${finance.id}`)
    const member = (
      await call<{ list: { nickname: string; phone: string }[] }>('GET', `/api/admin/members?q=${m.id}`, finance.token)
    ).body.data.list[0]!
    expect(rejected).toMatchObject({
      action: '拒绝退款',
      details: `会员 ${member.nickname}（${member.phone}） · 退款单 ${refundNo} · 申请 ¥39.9 · 备注：已学习过半`,
      result: '成功',
    })
  })

  it('names every audited route, and names nothing that is not one', () => {
    const audited = t().app.auditedRoutes
    // Changes across the catalogue, sales, members, staff, tuition: a route added later is held to the table too.
    expect(audited.length).toBeGreaterThan(60)
    const unnamed = audited.filter((key) => {
      const [method, route] = key.split(' ') as [string, string]
      return actionName(method, route, null) === null
    })
    expect(unnamed, 'audited routes without a name in server/modules/audit/action-names.ts').toEqual([])
    expect(namedActions().filter((key) => !audited.includes(key))).toEqual([])
  })

  it('names a toggle by what it did, and a full edit as an edit', () => {
    const course = (body: unknown) => actionName('PATCH', '/api/admin/courses/:id', body)
    expect(course({ status: 'published' })).toBe('上架课程')
    expect(course({ status: 'hidden' })).toBe('下架课程')
    expect(course({ title: '新标题', status: 'published' })).toBe('修改课程')
    expect(actionName('POST', '/api/admin/comments/:id/moderate', { action: 'hide', reason: '广告' })).toBe('隐藏评论')
    expect(actionName('PATCH', '/api/admin/vip-plans/:id', { active: false })).toBe('停售 VIP 套餐')
    expect(actionName('PUT', '/api/admin/staff/:id/roles', { roles: [] })).toBe('撤销员工全部角色')
    expect(actionName('PUT', '/api/admin/staff/:id/roles', { roles: ['finance'] })).toBe('修改员工角色')
    expect(actionName('POST', '/api/admin/gone', {})).toBeNull()
    expect(actionKey('POST', '/api/admin/staff')).toBe('POST /api/admin/staff')
  })

  it('records a member trying an admin change, refused with 403', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const member = await makeMember(db)
    expect((await call('PATCH', '/api/admin/vip-plans/1', member.token, { price_fen: 1 })).body.code).toBe(403)
    const list = await actions(admin.token, `?q=${member.id}`)
    expect(list[0]).toMatchObject({
      member_id: member.id,
      action: '修改 VIP 套餐',
      details: '编号 1 · 价格 ¥0.01',
      result: '失败：没有权限',
      method: 'PATCH',
      route: '/api/admin/vip-plans/:id',
      params: { id: '1' },
      code: 403,
    })
  })

  it('names bad filters with 400', async () => {
    const admin = await makeMember(t().database.db, 'admin')
    expect((await call('GET', '/api/admin/staff-actions?route=admin', admin.token)).body).toMatchObject({
      code: 400,
      msg: '接口格式不正确',
    })
    expect((await call('GET', '/api/admin/staff-actions?page_size=1000', admin.token)).body.code).toBe(400)
    expect((await call('GET', '/api/admin/staff-actions?sort=member_id', admin.token)).body.code).toBe(400)
  })

  it('only admins read the record', async () => {
    const staff = await makeMember(t().database.db, 'staff')
    expect((await call('GET', '/api/admin/staff-actions', staff.token)).body.code).toBe(403)
    expect((await call('GET', '/api/admin/staff-actions?route=admin', staff.token)).body.code).toBe(403)
  })

  it('keeps secrets and large bodies out of the record', () => {
    expect(auditBody({ note: '补发', api_key: 'k', nested: { password: 'p', ok: 1 } })).toEqual({
      note: '补发',
      api_key: '[removed]',
      nested: { password: '[removed]', ok: 1 },
    })
    expect(auditBody({ big: 'x'.repeat(5000), other: 1 })).toEqual({ truncated: true, keys: ['big', 'other'] })
    expect(auditBody(undefined)).toBeNull()
  })
})
