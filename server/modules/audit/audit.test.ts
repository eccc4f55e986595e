import { describe, expect, it } from 'vitest'
import { auditBody } from '#server/http/staff-audit.ts'
import { headersOf, useCommerceApp, type ApiBody } from '#server/modules/payments/testing.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'

interface Action {
  member_id: number
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
  })

  it('records a member trying an admin change, refused with 403', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const member = await makeMember(db)
    expect((await call('PATCH', '/api/admin/vip-plans/1', member.token, { price_fen: 1 })).body.code).toBe(403)
    const list = await actions(admin.token, `?q=${member.id}`)
    expect(list[0]).toMatchObject({
      member_id: member.id,
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
