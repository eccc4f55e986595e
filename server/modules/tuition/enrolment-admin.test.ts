import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { members } from '#server/db/schema/members.ts'
import { staffActions } from '#server/db/schema/audit.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import { useTestApp } from '#tests/support/app.ts'
import { stepUpHeaders } from '#tests/support/staff.ts'
import { api, makePlanAndTemplate, makeProgramme, offer, sign } from './testing.ts'

interface Row {
  id: number
  name: string | null
  phone: string | null
  state: string
  course_title: string
  plan_title: string
  total_fen: number
  paid_fen: number
}

describe('enrolments in the console (issue 15)', () => {
  const t = useTestApp()
  const call = api(() => t().app)

  async function phoneOf(memberId: number) {
    const [row] = await t().database.db.select({ phone: members.phone }).from(members).where(eq(members.id, memberId))
    return row!.phone!
  }

  /** Two enrolments in one programme: one from a lead (韩梅梅), one by phone whose contract is signed (张小明). */
  async function twoEnrolments() {
    const db = t().database.db
    const { system, staff } = await makeProgramme(db)
    const { planId, versionId } = await makePlanAndTemplate(call, staff.token, system)
    const lead = await call<{ id: number }>('POST', '/api/course/signUp', undefined, {
      name: '韩梅梅',
      phone: '13700005555',
      course_id: system,
    })
    const fromLead = await call<{ enrolment_id: number }>('POST', '/api/admin/enrolments/offer', staff.token, {
      lead_id: lead.data.id,
      plan_id: planId,
      template_version_id: versionId,
    })
    const m = await makeMember(db)
    const phone = await phoneOf(m.id)
    const o = await offer(call, staff.token, phone, planId, versionId)
    expect((await sign(() => t().app, call, m.token, phone, o.contract_id!)).code).toBe(200)
    return { system, staff, leadEnrolment: fromLead.data.enrolment_id, signed: o, phone }
  }

  it('refuses members without tuition.read; assistants read, but neither extend nor export without step-up', async () => {
    const { staff, signed } = await twoEnrolments()
    const db = t().database.db
    const learner = await makeMember(db)
    const teacher = await makeMember(db, ['teacher'])
    for (const who of [learner, teacher]) {
      expect((await call('GET', '/api/admin/enrolments', who.token)).code).toBe(403)
      expect((await call('GET', `/api/admin/enrolments/${signed.enrolment_id}`, who.token)).code).toBe(403)
      expect((await call('GET', `/api/admin/contracts/${signed.contract_id}/pdf`, who.token)).code).toBe(403)
    }
    const assistant = await makeMember(db, ['assistant'])
    expect((await call('GET', '/api/admin/enrolments', assistant.token)).code).toBe(200)
    const detail = await call<{ schedule: { id: number }[] }>(
      'GET',
      `/api/admin/enrolments/${signed.enrolment_id}`,
      staff.token,
    )
    const balance = detail.data.schedule[1]!.id
    const extend = { due_at: new Date(Date.now() + 60 * 86_400_000).toISOString(), reason: '学员申请延期' }
    expect((await call('POST', `/api/admin/tuition-payments/${balance}/extend`, assistant.token, extend)).code).toBe(
      403,
    )
    const noProof = await t().app.inject({
      method: 'GET',
      url: '/api/admin/enrolments?format=csv',
      headers: { 'zxb-token': staff.token },
    })
    expect(noProof.json()).toMatchObject({ code: 407 })
  })

  it('lists by state, course and a name or phone (the lead’s, the contract’s, the member’s), newest first', async () => {
    const { system, staff, leadEnrolment, signed, phone } = await twoEnrolments()
    // The test file's database holds the other tests' enrolments too: each query names this programme.
    const list = (query: string) =>
      call<{ list: Row[]; total: number }>(
        'GET',
        `/api/admin/enrolments?course_id=${system}${query}`,
        staff.token,
      ).then((r) => r.data)
    const all = await list('')
    expect(all.total).toBe(2)
    expect(all.list.map((r) => r.id)).toEqual([signed.enrolment_id, leadEnrolment])
    expect(all.list[0]).toMatchObject({
      name: '张小明',
      phone,
      state: 'signed',
      course_title: '插画系统课',
      plan_title: '定金 + 尾款',
      total_fen: 300000,
      paid_fen: 0,
    })
    expect(all.list[1]).toMatchObject({ name: '韩梅梅', phone: '13700005555', state: 'offered' })
    expect((await list('&state=offered')).list.map((r) => r.id)).toEqual([leadEnrolment])
    expect((await list('&q=梅梅')).list.map((r) => r.id)).toEqual([leadEnrolment])
    expect((await list('&q=小明')).list.map((r) => r.id)).toEqual([signed.enrolment_id])
    expect((await list(`&q=${phone}`)).list.map((r) => r.id)).toEqual([signed.enrolment_id])
    expect((await list('&sort=created_at')).list.map((r) => r.id)).toEqual([leadEnrolment, signed.enrolment_id])
    const other = await call<{ total: number }>('GET', `/api/admin/enrolments?course_id=${system + 999}`, staff.token)
    expect(other.data.total).toBe(0)
    const csv = await t().app.inject({
      method: 'GET',
      url: `/api/admin/enrolments?format=csv&course_id=${system}&q=${encodeURIComponent('小明')}`,
      headers: { 'zxb-token': staff.token, ...stepUpHeaders(staff.token) },
    })
    expect(csv.headers['content-type']).toMatch(/^text\/csv/)
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/)
    expect(lines).toHaveLength(2)
    expect(lines[1]).toContain('张小明')
    expect(lines[1]).toContain('3000.00')
  })

  it('one enrolment: schedule, event log with who extended a due date and why, the contract and its PDF', async () => {
    const { staff, signed } = await twoEnrolments()
    const path = `/api/admin/enrolments/${signed.enrolment_id}`
    type Detail = {
      schedule: { id: number; label: string; status: string; amount_fen: number }[]
      events: { to: string; reason: string; actor: string; data: Record<string, unknown> | null }[]
      contract: { id: number; signed_at: string | null; sha256: string | null }
      exit_quote: unknown
    }
    const before = await call<Detail>('GET', path, staff.token)
    expect(before.code).toBe(200)
    expect(before.data.schedule.map((p) => [p.label, p.amount_fen, p.status])).toEqual([
      ['定金', 50000, 'due'],
      ['尾款', 250000, 'due'],
    ])
    expect(before.data.events.map((e) => e.reason)).toEqual(['offered', 'contract_signed'])
    expect(before.data.contract.id).toBe(signed.contract_id)
    expect(before.data.contract.signed_at).not.toBeNull()
    expect(before.data.exit_quote).toBeNull()

    const due = new Date(Date.now() + 90 * 86_400_000).toISOString()
    const extended = await call(
      'POST',
      `/api/admin/tuition-payments/${before.data.schedule[1]!.id}/extend`,
      staff.token,
      {
        due_at: due,
        reason: '学员出差，延后尾款',
      },
    )
    expect(extended.code).toBe(200)
    const after = await call<Detail>('GET', path, staff.token)
    const last = after.data.events.at(-1)!
    expect(last).toMatchObject({ reason: 'due_extended', data: { reason: '学员出差，延后尾款', to: due } })
    expect(last.actor).toMatch(/^admin:\d+$/)

    const pdf = await t().app.inject({
      method: 'GET',
      url: `/api/admin/contracts/${signed.contract_id}/pdf`,
      headers: { 'zxb-token': staff.token },
    })
    expect(pdf.headers['content-type']).toBe('application/pdf')
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
    // The PDF carries the learner's ID number: each staff read is in the action log (written after the answer).
    const pdfRoute = '/api/admin/contracts/:id/pdf'
    let logged: { memberId: number | null; status: number }[] = []
    const read = { memberId: staff.id, status: 200 }
    for (let i = 0; i < 100 && !logged.some((l) => l.memberId === read.memberId); i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 20))
      logged = await t()
        .database.db.select({ memberId: staffActions.memberId, status: staffActions.status })
        .from(staffActions)
        .where(eq(staffActions.route, pdfRoute))
    }
    expect(logged).toContainEqual(read)
    expect((await call('GET', '/api/admin/enrolments/999999', staff.token)).code).toBe(404)
  })

  it('previews a template filled for a sample learner under a chosen plan, unknown placeholders left visible', async () => {
    const { system, staff } = await makeProgramme(t().database.db)
    const { planId } = await makePlanAndTemplate(call, staff.token, system, {
      title: '三期分期',
      kind: 'instalments',
      instalments: 3,
    })
    const body = '乙方：{{real_name}}，方案：{{plan}}，总学费 {{total}}。缴费：{{schedule}}。{{typo}}'
    const r = await call<{ text: string }>('POST', '/api/admin/contract-templates/preview', staff.token, {
      body,
      plan_id: planId,
    })
    expect(r.data.text).toMatch(/^乙方：张小明，方案：三期分期，总学费 3000 元。缴费：第 1\/3 期/)
    expect(r.data.text).toContain('{{typo}}')
    const learner = await makeMember(t().database.db)
    expect((await call('POST', '/api/admin/contract-templates/preview', learner.token, { body })).code).toBe(403)
  })
})
