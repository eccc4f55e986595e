import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '#tests/support/app.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import { memberPhones } from '#server/modules/members/members.service.ts'
import { outboxCode, testClock } from './testing.ts'

type Body<T = unknown> = { code: number; msg: string; data: T }

describe('step-up: a fresh SMS code before sensitive staff actions', () => {
  const clock = testClock()
  const t = useTestApp({}, { integrations: { now: clock.now } })
  const post = async <T>(url: string, token: string, payload: object = {}, extra: Record<string, string> = {}) =>
    (await t().app.inject({ method: 'POST', url, headers: { 'zxb-token': token, ...extra }, payload })).json<Body<T>>()
  const exportStaff = (token: string, proof?: string) =>
    t().app.inject({
      method: 'GET',
      url: '/api/admin/staff?role=finance&format=csv',
      headers: { 'zxb-token': token, ...(proof ? { 'x-step-up': proof } : {}) },
    })

  it('sends a code to the staff member’s own phone and trades it for a proof bound to the session, for 5 minutes', async () => {
    const admin = await makeMember(t().database.db, 'admin')
    const other = await makeMember(t().database.db, 'admin')
    const phone = (await memberPhones(t().database.db, [admin.id])).get(admin.id)!
    expect((await exportStaff(admin.token)).json<Body>().code).toBe(407)

    const sent = await post<{ phone: string }>('/api/admin/step-up/send_code', admin.token)
    expect(sent.data.phone).toBe(`${phone.slice(0, 3)}****${phone.slice(-4)}`)
    expect((await post('/api/admin/step-up', admin.token, { code: 'x1x2' })).code).toBe(405)
    const code = await outboxCode(t().app, phone, 'step_up')
    // Another staff member cannot use this code (it is hashed with the member who asked).
    expect((await post('/api/admin/step-up', other.token, { code })).code).not.toBe(200)
    const got = await post<{ proof: string; expires_in: number }>('/api/admin/step-up', admin.token, { code })
    expect(got.code).toBe(200)
    expect(got.data.expires_in).toBe(300)
    // Used once: the same code again is refused.
    expect((await post('/api/admin/step-up', admin.token, { code })).code).toBe(406)

    expect((await exportStaff(admin.token, got.data.proof)).statusCode).toBe(200)
    // Bound to the session: another token with the same proof is refused.
    expect((await exportStaff(other.token, got.data.proof)).json<Body>().code).toBe(407)
    // A tampered proof is refused.
    expect(
      (
        await exportStaff(
          admin.token,
          got.data.proof.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
        )
      ).json<Body>().code,
    ).toBe(407)
    clock.advance(301_000)
    expect((await exportStaff(admin.token, got.data.proof)).json<Body>().code).toBe(407)
    clock.reset()
  })

  it('guards refund approval and the orders export: finance without a proof gets 407', async () => {
    const finance = await makeMember(t().database.db, ['finance'])
    const approve = await post('/api/admin/refunds/RF000000000000000000/approve', finance.token)
    expect(approve.code).toBe(407)
    const exported = await t().app.inject({
      method: 'GET',
      url: '/api/admin/orders?format=csv',
      headers: { 'zxb-token': finance.token },
    })
    expect(exported.json<Body>().code).toBe(407)
  })

  it('refuses the orders export to an operator who reads orders but may not export them, even with a proof', async () => {
    const operator = await makeMember(t().database.db, ['operator'])
    const headers = { 'zxb-token': operator.token }
    expect((await t().app.inject({ method: 'GET', url: '/api/admin/orders', headers })).json<Body>().code).toBe(200)
    const send = await post('/api/admin/step-up/send_code', operator.token)
    expect(send.code).toBe(200)
    const proof = await post<{ proof: string }>('/api/admin/step-up', operator.token, {
      code: await outboxCode(t().app, operator.phone, 'step_up'),
    })
    const exported = await t().app.inject({
      method: 'GET',
      url: '/api/admin/orders?format=csv',
      headers: { ...headers, 'x-step-up': proof.data.proof },
    })
    expect(exported.statusCode).toBe(403)
    expect(exported.json<Body>().msg).toBe('你的角色不能导出这个列表')
  })

  it('refuses learners the step-up endpoints', async () => {
    const learner = await makeMember(t().database.db)
    expect((await post('/api/admin/step-up/send_code', learner.token)).code).toBe(403)
    expect((await post('/api/admin/step-up', learner.token, { code: '1234' })).code).toBe(403)
  })

  it('exports what the filter shows as CSV, streamed, with a BOM and no formulas', async () => {
    const admin = await makeMember(t().database.db, 'admin')
    const finance = await makeMember(t().database.db, ['finance'])
    const operator = await makeMember(t().database.db, ['operator'])
    const { db } = t().database
    await db.execute(sql`update members set nickname = '=HYPERLINK("x")' where id = ${finance.id}`)
    const phone = (await memberPhones(db, [admin.id])).get(admin.id)!
    await post('/api/admin/step-up/send_code', admin.token)
    const code = await outboxCode(t().app, phone, 'step_up')
    const { data } = await post<{ proof: string }>('/api/admin/step-up', admin.token, { code })
    const res = await exportStaff(admin.token, data.proof)
    expect(res.headers['content-type']).toMatch(/^text\/csv/)
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="staff-\d{4}-\d{2}-\d{2}\.csv"$/)
    const text = res.body
    expect(text.startsWith('\uFEFF')).toBe(true)
    const lines = text.slice(1).trim().split('\r\n')
    expect(lines[0]).toBe('成员ID,昵称,手机号,角色,授权时间,最近登录')
    // The filter (role=finance) exactly: the finance member, not the operator nor the admin.
    const ids = lines.slice(1).map((l) => Number(l.split(',')[0]))
    expect(ids).toContain(finance.id)
    expect(ids).not.toContain(operator.id)
    expect(ids).not.toContain(admin.id)
    expect(lines.slice(1).every((l) => l.includes('财务'))).toBe(true)
    expect(lines.find((l) => l.startsWith(`${finance.id},`))).toContain(`"'=HYPERLINK(""x"")"`)
  })
})
