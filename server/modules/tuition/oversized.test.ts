import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { makeMember } from '#tests/support/media-fixtures.ts'
import { useTestApp } from '#tests/support/app.ts'
import { api, makeProgramme } from './testing.ts'

// Oversized and out-of-range input to every tuition body (issue 15): 400 with a Chinese message, nothing written.

const HUGE = 'x'.repeat(100_000)
const BIG_ID = 99_999_999_999
const TABLES = ['leads', 'tuition_plans', 'contract_templates', 'contract_template_versions', 'enrolments', 'orders']

describe('oversized input to the tuition bodies', () => {
  const t = useTestApp()
  const call = api(() => t().app)

  async function counts() {
    const out: Record<string, number> = {}
    for (const table of TABLES) {
      const r = await t().database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from ${sql.identifier(table)}`,
      )
      out[table] = r.rows[0]!.n
    }
    return out
  }

  async function refused(method: 'POST' | 'PATCH', url: string, token: string | undefined, body: unknown) {
    const r = await call(method, url, token, body)
    expect(r.code, `${url} ${JSON.stringify(body).slice(0, 120)} → ${r.msg}`).toBe(400)
    expect(r.msg).toMatch(/\p{Script=Han}/u)
    return r
  }

  it('admin bodies: plans, templates, offers, leads, due dates', async () => {
    const db = t().database.db
    const { system } = await makeProgramme(db)
    const admin = await makeMember(db, 'admin')
    const before = await counts()
    const plan = { course_id: system, title: '全款', kind: 'full', total_fen: 300000 }
    for (const body of [
      { ...plan, title: HUGE },
      { ...plan, total_fen: -1 },
      { ...plan, total_fen: 1e12 },
      { ...plan, total_fen: 2_147_483_648 },
      { ...plan, total_fen: 12.5 },
      { ...plan, kind: 'deposit', deposit_fen: 1e12 },
      { ...plan, exit_fee_fen: -100 },
      { ...plan, exit_fee_fen: 1e12 },
      { ...plan, course_id: BIG_ID },
      { ...plan, huabei_allowed: true, huabei_periods: Array.from({ length: 10_000 }, () => 3) },
      { ...plan, study_days: 1e9 },
    ])
      await refused('POST', '/api/admin/tuition-plans', admin.token, body)
    for (const body of [
      { name: HUGE, title: '合同', body: '甲方乙方'.repeat(10) },
      { name: '模板', title: '合同', body: HUGE },
    ])
      await refused('POST', '/api/admin/contract-templates', admin.token, body)
    for (const body of [
      { phone: '13812345678', plan_id: BIG_ID },
      { phone: HUGE, plan_id: 1 },
      { lead_id: -1, plan_id: 1 },
      { phone: '13812345678', plan_id: 1, template_version_id: BIG_ID },
    ])
      await refused('POST', '/api/admin/enrolments/offer', admin.token, body)
    await refused('PATCH', '/api/admin/leads/1', admin.token, { note: HUGE })
    await refused('POST', '/api/admin/tuition-payments/1/extend', admin.token, { due_at: HUGE, reason: '延期' })
    await refused('POST', '/api/admin/tuition-payments/1/extend', admin.token, {
      due_at: '2026-12-01T00:00:00+08:00',
      reason: HUGE,
    })
    expect(await counts()).toEqual(before)
  })

  it('learner bodies: sign-up, signing, paying, pausing, exiting', async () => {
    const db = t().database.db
    const m = await makeMember(db)
    const before = await counts()
    for (const body of [
      { name: HUGE, phone: '13812345678', interest: '插画' },
      { name: '王五', phone: '13812345678', interest: HUGE },
      { name: '王五', phone: '13812345678', interest: '插画', contact_time: HUGE },
      { name: '王五', phone: '13812345678', interest: '插画', course_id: BIG_ID },
    ])
      await refused('POST', '/api/course/signUp', undefined, body)
    const sign = {
      id: 100001,
      code: '123456',
      real_name: '张小明',
      agree: true,
      signature: 'data:image/png;base64,AAAA',
    }
    for (const body of [
      { ...sign, id: BIG_ID },
      { ...sign, code: HUGE },
      { ...sign, real_name: HUGE },
      { ...sign, id_number: HUGE },
      { ...sign, signature: `data:image/png;base64,${'A'.repeat(500_000)}` },
    ])
      await refused('POST', '/api/contract/agree', m.token, body)
    for (const body of [
      { enrolment_id: BIG_ID, pay_method: 'wechat_h5' },
      { enrolment_id: 1, payment_id: BIG_ID, pay_method: 'wechat_h5' },
      { enrolment_id: -1, pay_method: 'wechat_h5' },
      { enrolment_id: 1, pay_method: HUGE },
      { enrolment_id: 1, pay_method: 'alipay_wap', huabei_periods: 1e9 },
    ])
      await refused('POST', '/api/pay/tuition', m.token, body)
    for (const body of [
      { enrolment_id: 1, days: -3 },
      { enrolment_id: 1, days: 1e9 },
      { enrolment_id: BIG_ID, days: 3 },
    ])
      await refused('POST', '/api/course/pause', m.token, body)
    await refused('POST', '/api/course/resume', m.token, { enrolment_id: BIG_ID })
    for (const body of [
      { enrolment_id: 1, refund_fen: -1 },
      { enrolment_id: 1, refund_fen: 1e12 },
      { enrolment_id: BIG_ID, refund_fen: 0 },
    ])
      await refused('POST', '/api/course/exit', m.token, body)
    expect(await counts()).toEqual(before)
  })
})
