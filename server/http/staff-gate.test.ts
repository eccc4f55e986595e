import { describe, expect, it } from 'vitest'
import { randomPhone, signIn, testClock } from '#server/modules/auth/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import { stepUpHeaders } from '#tests/support/staff.ts'
import { can, roleAbilities, roleChangeText, StaffRoles } from '#shared/staff/roles.ts'

type Body = { code: number; msg: string; data: unknown }

/** Every operator route the app serves, from its own OpenAPI document (so a route added later is checked too). */
function adminRoutes(doc: { paths?: Record<string, Record<string, unknown>> }) {
  return Object.entries(doc.paths ?? {})
    .filter(([path]) => path.startsWith('/api/admin/'))
    .flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => ({
        method: method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
        url: path.replace(/\{refund_no\}/g, 'RF000000000000000000').replace(/\{[^}]+\}/g, '1'),
      })),
    )
}

describe('the operator API gate', () => {
  const clock = testClock()
  const t = useTestApp({ STAFF_SESSION_HOURS: '12' }, { integrations: { now: clock.now } })
  const call = async (method: string, url: string, headers: Record<string, string> = {}) => {
    const res = await t().app.inject({
      method: method as 'GET',
      url,
      headers,
      payload: method === 'GET' ? undefined : {},
    })
    return { status: res.statusCode, body: res.json<Body>() }
  }

  it('refuses every /api/admin/ route to a learner (403), without a session (301) and to an expired staff session (504)', async () => {
    const routes = adminRoutes(t().app.swagger() as never)
    // The console's own, the catalogue, sales, refunds, payments, points, staff, audit: well over thirty.
    expect(routes.length).toBeGreaterThan(30)
    const learner = await makeMember(t().database.db)
    const admin = await makeMember(t().database.db, 'admin')
    clock.advance(12 * 3600_000 + 1000)
    try {
      for (const r of routes) {
        const anonymous = await call(r.method, r.url)
        expect(anonymous.body.code, `${r.method} ${r.url} anonymous`).toBe(301)
        const asLearner = await call(r.method, r.url, { 'zxb-token': learner.token, ...stepUpHeaders(learner.token) })
        expect(asLearner.status, `${r.method} ${r.url} learner`).toBe(403)
        const expired = await call(r.method, r.url, { 'zxb-token': admin.token, ...stepUpHeaders(admin.token) })
        expect(expired.body.code, `${r.method} ${r.url} expired staff session`).toBe(504)
      }
    } finally {
      clock.reset()
    }
    // The learner's session of the same age still works: only staff sessions are short.
    expect((await call('GET', '/api/userinfo', { 'zxb-token': learner.token })).body.code).toBe(200)
  })

  it('lets a role through only where its permissions reach: a teacher cannot open sales, finance can', async () => {
    const teacher = await makeMember(t().database.db, ['teacher'])
    const finance = await makeMember(t().database.db, ['finance'])
    for (const url of ['/api/admin/orders', '/api/admin/refunds', '/api/admin/staff', '/api/admin/staff-actions']) {
      expect((await call('GET', url, { 'zxb-token': teacher.token })).status, url).toBe(403)
    }
    expect((await call('GET', '/api/admin/orders', { 'zxb-token': finance.token })).body.code).toBe(200)
    expect((await call('GET', '/api/admin/refunds', { 'zxb-token': finance.token })).body.code).toBe(200)
    expect((await call('GET', '/api/admin/staff', { 'zxb-token': finance.token })).status).toBe(403)
    // A teacher reads the catalogue but may not change it (their own courses come with a scope, later).
    expect((await call('GET', '/api/admin/categories', { 'zxb-token': teacher.token })).body.code).toBe(200)
    expect((await call('POST', '/api/admin/categories', { 'zxb-token': teacher.token })).status).toBe(403)
    const me = await call('GET', '/api/admin/me', { 'zxb-token': finance.token })
    expect(me.body.data).toMatchObject({ roles: ['finance'] })
    expect((me.body.data as { permissions: string[] }).permissions).toContain('refunds.approve')
    expect(
      (await call('GET', '/api/admin/me', { 'zxb-token': (await makeMember(t().database.db)).token })).status,
    ).toBe(403)
  })

  it('admins grant and revoke roles with a step-up proof; the change counts at the next request', async () => {
    const admin = await makeMember(t().database.db, 'admin')
    const phone = randomPhone()
    const headers = { 'zxb-token': admin.token }
    const grant = { phone, roles: ['finance', 'assistant'] }
    const noProof = await t().app.inject({ method: 'POST', url: '/api/admin/staff', headers, payload: grant })
    expect(noProof.json<Body>().code).toBe(407)
    const granted = await t().app.inject({
      method: 'POST',
      url: '/api/admin/staff',
      headers: { ...headers, ...stepUpHeaders(admin.token) },
      payload: grant,
    })
    const member = granted.json<{ data: { member_id: number; roles: string[] } }>().data
    expect(member.roles).toEqual(['assistant', 'finance'])
    // The new finance member signs in with their phone and reads orders.
    const session = await signIn(t().app, phone)
    expect((await call('GET', '/api/admin/orders', { 'zxb-token': session.token })).body.code).toBe(200)

    const bad = await t().app.inject({
      method: 'PUT',
      url: `/api/admin/staff/${member.member_id}/roles`,
      headers: { ...headers, ...stepUpHeaders(admin.token) },
      payload: { roles: ['cashier'] },
    })
    expect(bad.statusCode).toBe(400)
    const selfDemote = await t().app.inject({
      method: 'PUT',
      url: `/api/admin/staff/${admin.id}/roles`,
      headers: { ...headers, ...stepUpHeaders(admin.token) },
      payload: { roles: ['operator'] },
    })
    expect(selfDemote.json<Body>().code).toBe(409)
    const revoked = await t().app.inject({
      method: 'PUT',
      url: `/api/admin/staff/${member.member_id}/roles`,
      headers: { ...headers, ...stepUpHeaders(admin.token) },
      payload: { roles: [] },
    })
    expect(revoked.json<{ data: { roles: string[] } }>().data.roles).toEqual([])
    // The token lookup remembers roles for at most 5 s.
    clock.advance(6000)
    await new Promise((r) => setTimeout(r, 5100))
    expect((await call('GET', '/api/admin/orders', { 'zxb-token': session.token })).status).toBe(403)
    clock.reset()
  })
})

describe('granting staff: a name, and what changed', () => {
  const t = useTestApp()
  const grant = async (
    admin: { id: number; token: string },
    payload: Record<string, unknown>,
    url = '/api/admin/staff',
  ) =>
    (
      await t().app.inject({
        method: url === '/api/admin/staff' ? 'POST' : 'PUT',
        url,
        headers: { 'zxb-token': admin.token, ...stepUpHeaders(admin.token) },
        payload,
      })
    ).json<{
      code: number
      msg: string
      data: { member_id: number; nickname: string; roles: string[]; previous_roles: string[] } & { field?: string }
    }>()

  it('names a new staff member and says what the grant did', async () => {
    const admin = await makeMember(t().database.db, 'admin')
    const phone = randomPhone()
    const made = await grant(admin, { phone, roles: ['operator'], name: ' 张三 ' })
    expect(made).toMatchObject({
      code: 200,
      msg: '已授权 张三 为 运营',
      data: { nickname: '张三', roles: ['operator'], previous_roles: [] },
    })
    // Granting more keeps what they hold and says how the roles changed; no name keeps the nickname.
    const more = await grant(admin, { phone, roles: ['assistant'], name: '' })
    expect(more).toMatchObject({
      msg: '张三 的角色由 运营 改为 助教、运营',
      data: { nickname: '张三', roles: ['assistant', 'operator'], previous_roles: ['operator'] },
    })
    // Renamed from the staff list (编辑): alone, and with the roles.
    const roles = `/api/admin/staff/${made.data.member_id}/roles`
    const renamed = await grant(admin, { roles: ['assistant', 'operator'], name: '李四' }, roles)
    expect(renamed).toMatchObject({ msg: '已将 张三 改名为 李四', data: { nickname: '李四' } })
    const both = await grant(admin, { roles: ['operator'], name: '张三' }, roles)
    expect(both.msg).toBe('已将 李四 改名为 张三；张三 的角色由 助教、运营 改为 运营')
    const tooLong = await grant(admin, { roles: ['operator'], name: '名'.repeat(21) }, roles)
    expect([tooLong.code, tooLong.data.field]).toEqual([400, 'name'])
    const revoked = await grant(admin, { roles: [] }, roles)
    expect(revoked.msg).toBe('已撤销 张三 的全部角色（运营），此后不能登录后台')
    // Without a name a new member is 学员 and the phone's last four digits, as before.
    const plain = await grant(admin, { phone: randomPhone(), roles: ['finance'] })
    expect(plain.data.nickname).toMatch(/^学员\d{4}$/)
    expect(plain.msg).toBe(`已授权 ${plain.data.nickname} 为 财务`)
  })

  it('refuses a name that is too long, naming the field', async () => {
    const admin = await makeMember(t().database.db, 'admin')
    const refused = await grant(admin, { phone: randomPhone(), roles: ['operator'], name: '名'.repeat(21) })
    expect(refused.code).toBe(400)
    // The console's form says 姓名最多 20 个字 before it sends; the API names the field for it.
    expect(refused.data.field).toBe('name')
  })
})

describe('roleAbilities', () => {
  it('describes each role from its grants: scoped ones marked, admins with what only they may do', () => {
    expect(roleAbilities('finance')).toEqual(expect.arrayContaining(['审批退款', '导出订单', '调整积分', '对账']))
    expect(roleAbilities('operator')).not.toContain('审批退款')
    expect(roleAbilities('teacher')).toEqual(expect.arrayContaining(['查看课程目录', '编辑课程（仅自己的课程）']))
    expect(roleAbilities('admin')).toEqual(['全部功能', '管理员工和角色', '查看操作日志'])
    // Every role says something, and every description follows a grant (a role without a permission lists none).
    for (const role of StaffRoles) expect(roleAbilities(role).length, role).toBeGreaterThan(0)
    expect(roleChangeText('李四', ['finance'], ['finance'])).toBe('李四 的角色没有变化：财务')
  })
})

describe('can', () => {
  it('gives admins everything and scoped grants only on their own things', () => {
    expect(can({ memberId: 1, roles: ['admin'] }, 'staff.manage')).toBe(true)
    expect(can({ memberId: 1, roles: ['operator', 'finance'] }, 'refunds.approve')).toBe(true)
    expect(can({ memberId: 1, roles: ['operator'] }, 'refunds.approve')).toBe(false)
    expect(can({ memberId: 1, roles: [] }, 'orders.read')).toBe(false)
    expect(can(null, 'orders.read')).toBe(false)
    expect(can({ memberId: 7, roles: ['teacher'] }, 'catalogue.edit')).toBe(false)
    expect(can({ memberId: 7, roles: ['teacher'] }, 'catalogue.edit', { ownerMemberId: 7 })).toBe(true)
    expect(can({ memberId: 7, roles: ['teacher'] }, 'catalogue.edit', { ownerMemberId: 8 })).toBe(false)
    // Only an admin manages staff.
    expect(StaffRoles.filter((r) => can({ memberId: 1, roles: [r] }, 'staff.manage'))).toEqual(['admin'])
  })
})
