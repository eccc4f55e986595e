import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { memberCoupons } from '#server/db/schema/coupons.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import { stepUpHeaders } from '#tests/support/staff.ts'

type Res<T = Record<string, unknown>> = { code: number; msg: string; data: T }
interface Template {
  id: number
  name: string
  active: boolean
  claimed_count: number
  used_count: number
}
interface Issued {
  id: number
  template_id: number
  template_name: string
  member_id: number
  phone: string | null
  state: string
}

describe('coupons in the operators console (/api/admin/coupon-templates, /api/admin/coupons)', () => {
  const t = useTestApp()
  let operator: Awaited<ReturnType<typeof makeMember>>
  const learners: Awaited<ReturnType<typeof makeMember>>[] = []
  const templates: number[] = []

  const call = async <T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = operator.headers,
  ) => {
    const res = await t().app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: res.statusCode, text: res.body, type: res.headers['content-type'], body: res.json<Res<T>>() }
  }

  beforeAll(async () => {
    const { db } = t().database
    operator = await makeMember(db, ['operator'])
    for (let i = 0; i < 3; i++) learners.push(await makeMember(db))
    for (const [name, amount] of [
      ['新人立减 10 元', 1000],
      ['满 100 减 30', 3000],
    ] as const) {
      const made = await call<{ id: number }>('POST', '/api/admin/coupon-templates', {
        name,
        kind: 'amount',
        amount_off_fen: amount,
        valid_days: 30,
      })
      expect(made.body.code).toBe(200)
      templates.push(made.body.data.id)
    }
    for (const l of learners) await call('POST', '/api/coupon', { template_id: templates[0] }, l.headers)
    await call('POST', '/api/coupon', { template_id: templates[1] }, learners[0]!.headers)
    // One of them was spent on an order.
    await db
      .update(memberCoupons)
      .set({ state: 'used', usedAt: new Date() })
      .where(eq(memberCoupons.memberId, learners[1]!.id))
  })

  it('lists templates paged with issued and used counts, by name and on/off', async () => {
    const list = await call<{ list: Template[]; total: number }>(
      'GET',
      '/api/admin/coupon-templates?sort=-claimed_count',
    )
    expect(list.body.data.total).toBe(2)
    expect(list.body.data.list.map((r) => [r.name, r.claimed_count, r.used_count])).toEqual([
      ['新人立减 10 元', 3, 1],
      ['满 100 减 30', 1, 0],
    ])
    const byName = await call<{ list: Template[] }>(
      'GET',
      `/api/admin/coupon-templates?q=${encodeURIComponent('满 100')}`,
    )
    expect(byName.body.data.list.map((r) => r.id)).toEqual([templates[1]])

    const off = await call<Template>('PATCH', `/api/admin/coupon-templates/${templates[1]}`, { active: false })
    expect(off.body.data.active).toBe(false)
    const offList = await call<{ list: Template[] }>('GET', '/api/admin/coupon-templates?active=false')
    expect(offList.body.data.list.map((r) => r.id)).toEqual([templates[1]])
    // Switched off: learners can no longer claim it.
    const claimable = await call<{ list: { id: number }[] }>('GET', '/api/coupons/claimable', undefined, {})
    expect(claimable.body.data.list.map((c) => c.id)).not.toContain(templates[1])
  })

  it('lists issued coupons by template and state, and exports what the filter shows', async () => {
    const all = await call<{ list: Issued[]; total: number }>('GET', `/api/admin/coupons?template_id=${templates[0]}`)
    expect(all.body.data.total).toBe(3)
    const used = await call<{ list: Issued[]; total: number }>(
      'GET',
      `/api/admin/coupons?template_id=${templates[0]}&state=used`,
    )
    expect(used.body.data.list).toEqual([
      expect.objectContaining({ member_id: learners[1]!.id, state: 'used', template_name: '新人立减 10 元' }),
    ])
    expect(used.body.data.list[0]!.phone).toMatch(/^1\d{10}$/)
    const byMember = await call<{ total: number }>('GET', `/api/admin/coupons?member_id=${learners[0]!.id}`)
    expect(byMember.body.data.total).toBe(2)

    const res = await t().app.inject({
      method: 'GET',
      url: `/api/admin/coupons?template_id=${templates[0]}&state=available&format=csv`,
      headers: { ...operator.headers, ...stepUpHeaders(operator.token) },
    })
    expect(res.headers['content-type']).toContain('text/csv')
    const lines = res.body.trim().split('\n')
    expect(lines[0]).toContain('模板')
    expect(lines).toHaveLength(3)
    expect(lines.slice(1).every((l) => l.includes('未使用'))).toBe(true)
  })

  it('exports coupon usage to the roles that read marketing (operator, finance), not to an assistant', async () => {
    const { db } = t().database
    const exportAs = async (m: Awaited<ReturnType<typeof makeMember>>) =>
      t().app.inject({
        method: 'GET',
        url: `/api/admin/coupons?template_id=${templates[0]}&format=csv`,
        headers: { ...m.headers, ...stepUpHeaders(m.token) },
      })
    for (const m of [operator, await makeMember(db, ['finance'])]) {
      const res = await exportAs(m)
      expect(res.headers['content-type']).toContain('text/csv')
      expect(res.body.trim().split('\n')).toHaveLength(4)
    }
    const refused = await exportAs(await makeMember(db, ['assistant']))
    expect(refused.statusCode).toBe(403)
  })

  it('validates the form schema and refuses learners and a teacher', async () => {
    const bad = await call('POST', '/api/admin/coupon-templates', { name: '坏', kind: 'amount', valid_days: 7 })
    expect(bad.status).toBe(400)
    const teacher = await makeMember(t().database.db, ['teacher'])
    expect(
      (
        await call(
          'POST',
          '/api/admin/coupon-templates',
          { name: 'x', kind: 'amount', amount_off_fen: 1, valid_days: 1 },
          teacher.headers,
        )
      ).status,
    ).toBe(403)
    expect((await call('GET', '/api/admin/coupons', undefined, teacher.headers)).status).toBe(403)
    expect((await call('GET', '/api/admin/coupons', undefined, learners[0]!.headers)).status).toBe(403)
  })
})
