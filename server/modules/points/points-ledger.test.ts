import { beforeAll, describe, expect, it } from 'vitest'
import { creditPoints } from '#server/modules/points/points.repository.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import { stepUpHeaders } from '#tests/support/staff.ts'

type Res<T = Record<string, unknown>> = { code: number; msg: string; data: T }
interface Entry {
  id: number
  member_id: number
  phone: string | null
  delta: number
  balance_after: number
  reason: string
  note: string | null
  actor: string
  actor_name: string
}

describe("every member's points ledger in the console (GET /api/admin/points/ledger)", () => {
  const t = useTestApp()
  let finance: Awaited<ReturnType<typeof makeMember>>
  let a: Awaited<ReturnType<typeof makeMember>>
  let b: Awaited<ReturnType<typeof makeMember>>

  const call = async <T = Record<string, unknown>>(
    method: 'GET' | 'POST',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = finance.headers,
  ) => {
    const res = await t().app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: res.statusCode, body: res.json<Res<T>>() }
  }

  beforeAll(async () => {
    const { db } = t().database
    finance = await makeMember(db, ['finance'])
    a = await makeMember(db)
    b = await makeMember(db)
    for (const [m, delta, note] of [
      [a, 500, '活动奖励'],
      [b, 200, '补偿'],
      [a, -100, '误发扣回'],
    ] as const) {
      const res = await call('POST', '/api/admin/points/adjust', { member_id: m.id, delta, note })
      expect(res.body.code).toBe(200)
    }
  })

  it('lists every entry newest first with member, balance after, reason and who; filters by member and reason', async () => {
    const all = await call<{ list: Entry[]; total: number }>('GET', '/api/admin/points/ledger')
    expect(all.body.data.total).toBe(3)
    expect(all.body.data.list.map((e) => [e.member_id, e.delta, e.balance_after, e.note])).toEqual([
      [a.id, -100, 400, '误发扣回'],
      [b.id, 200, 200, '补偿'],
      [a.id, 500, 500, '活动奖励'],
    ])
    expect(all.body.data.list[0]).toMatchObject({
      reason: 'admin_adjust',
      actor: `admin:${finance.id}`,
      actor_name: `${finance.nickname}（员工）`,
    })
    expect(all.body.data.list[0]!.phone).toMatch(/^1\d{10}$/)
    const mine = await call<{ total: number }>('GET', `/api/admin/points/ledger?member_id=${a.id}&sort=id`)
    expect(mine.body.data.total).toBe(2)
    const earned = await call<{ total: number }>('GET', '/api/admin/points/ledger?reason=order_earned')
    expect(earned.body.data.total).toBe(0)
    expect((await call('GET', '/api/admin/points/ledger?reason=gift')).status).toBe(400)
  })

  it('exports the filtered ledger as CSV', async () => {
    const res = await t().app.inject({
      method: 'GET',
      url: `/api/admin/points/ledger?member_id=${a.id}&format=csv`,
      headers: { ...finance.headers, ...stepUpHeaders(finance.token) },
    })
    expect(res.headers['content-type']).toContain('text/csv')
    const lines = res.body.trim().split('\n')
    expect(lines).toHaveLength(3)
    expect(lines[1]).toContain('误发扣回')
    expect(lines[1]).toContain('人工调整')
    expect(lines[1]).toContain(`${finance.nickname}（员工）`)
    expect(lines[1]).not.toContain(`admin:${finance.id}`)
  })

  it('names who made each change: 系统, 学员本人, 微信支付, another member, the staff member', async () => {
    const { db } = t().database
    const c = await makeMember(db)
    const at = new Date()
    for (const actor of ['system', `member:${c.id}`, 'provider:wechat', `member:${a.id}`, 'provider:alipay']) {
      await creditPoints(db, { memberId: c.id, points: 1, reason: 'order_earned', actor, at })
    }
    const list = await call<{ list: Entry[] }>('GET', `/api/admin/points/ledger?member_id=${c.id}&sort=id`)
    expect(list.body.data.list.map((e) => e.actor_name)).toEqual(['系统', '学员本人', '微信支付', a.nickname, '支付宝'])
  })

  it('refuses taking more points than the member has, naming the field (the console shows it under 积分)', async () => {
    const res = await call('POST', '/api/admin/points/adjust', { member_id: b.id, delta: -201, note: '误发扣回' })
    expect(res.body).toMatchObject({ code: 499, msg: '积分余额不足，不能扣减这么多', data: { field: 'delta' } })
    const ledger = await call<{ total: number }>('GET', `/api/admin/points/ledger?member_id=${b.id}`)
    expect(ledger.body.data.total).toBe(1)
  })

  it('refuses a teacher and a learner', async () => {
    const teacher = await makeMember(t().database.db, ['teacher'])
    expect((await call('GET', '/api/admin/points/ledger', undefined, teacher.headers)).status).toBe(403)
    expect((await call('GET', '/api/admin/points/ledger', undefined, a.headers)).status).toBe(403)
  })
})
