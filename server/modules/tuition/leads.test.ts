import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { members } from '#server/db/schema/members.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import { useTestApp } from '#tests/support/app.ts'
import { api, makePlanAndTemplate, makeProgramme, offer } from './testing.ts'

describe('lead forms and offers (issue 15 §1)', () => {
  const t = useTestApp()
  const call = api(() => t().app)

  describe('POST /api/course/signUp', () => {
    it('names the field and gives the spec message for a missing or malformed phone', async () => {
      const empty = await call('POST', '/api/course/signUp', undefined, { name: '王五', phone: ' ', interest: '插画' })
      expect(empty).toMatchObject({ code: 401, msg: '请输入手机号', data: { field: 'phone' } })
      const bad = await call('POST', '/api/course/signUp', undefined, {
        name: '王五',
        phone: '12345678901',
        interest: '插画',
      })
      expect(bad).toMatchObject({ code: 401, msg: '手机号格式错误', data: { field: 'phone' } })
      const noName = await call('POST', '/api/course/signUp', undefined, { phone: '13812345678', interest: '插画' })
      expect(noName).toMatchObject({ code: 400, msg: '请输入姓名', data: { field: 'name' } })
      const noCourse = await call('POST', '/api/course/signUp', undefined, {
        form: 1,
        name: '王五',
        phone: '13812345678',
      })
      expect(noCourse).toMatchObject({ code: 400, data: { field: 'interest' } })
    })

    it('records the lead with its promotion source and page; a second submission the same day updates it', async () => {
      const { system, staff } = await makeProgramme(t().database.db)
      const first = await call('POST', '/api/course/signUp?sp=douyin01', undefined, {
        form: 1,
        name: '李雷',
        phone: '13700001111',
        course_id: system,
        contact_time: '晚上',
        page: '/form/1',
        sp: 'douyin01',
      })
      expect(first).toMatchObject({ code: 200, data: { updated: false } })
      const again = await call('POST', '/api/course/signUp', undefined, {
        form: 2,
        name: '李雷',
        phone: '13700001111',
        interest: '想了解分期',
        contact_time: '周末',
      })
      expect(again).toMatchObject({ code: 200, data: { id: first.data.id, updated: true } })
      const list = await call<{ list: Record<string, unknown>[]; total: number }>(
        'GET',
        '/api/admin/leads?q=13700001111',
        staff.token,
      )
      expect(list.data.total).toBe(1)
      expect(list.data.list[0]).toMatchObject({
        phone: '13700001111',
        form: 2,
        course_id: system,
        interest: '想了解分期',
        contact_time: '周末',
        sp: 'douyin01',
        page: '/form/1',
        state: 'new',
        submissions: 2,
      })
    })
  })

  describe('staff: leads and offers', () => {
    it('refuses members without the tuition permissions', async () => {
      const m = await makeMember(t().database.db)
      expect((await call('GET', '/api/admin/leads', m.token)).code).toBe(403)
      const assistant = await makeMember(t().database.db, ['assistant'])
      expect((await call('GET', '/api/admin/leads', assistant.token)).code).toBe(200)
      expect(
        (await call('POST', '/api/admin/enrolments/offer', assistant.token, { phone: '13700002222', plan_id: 1 })).code,
      ).toBe(403)
    })

    it('offers a lead a plan and a contract: the lead becomes offered, the learner’s status offered', async () => {
      const db = t().database.db
      const { system, staff } = await makeProgramme(db)
      const { planId, versionId } = await makePlanAndTemplate(call, staff.token, system)
      const lead = await call<{ id: number }>('POST', '/api/course/signUp', undefined, {
        name: '韩梅梅',
        phone: '13700003333',
        course_id: system,
      })
      const o = await call<{ contract_id: number; link: string; enrolment_id: number }>(
        'POST',
        '/api/admin/enrolments/offer',
        staff.token,
        { lead_id: lead.data.id, plan_id: planId, template_version_id: versionId },
      )
      expect(o.code).toBe(200)
      expect(o.data.link).toBe(`/contract/${o.data.contract_id}`)
      const leads = await call<{ list: { state: string }[] }>('GET', '/api/admin/leads?state=offered', staff.token)
      expect(leads.data.list.map((l) => l.state)).toEqual(['offered'])
      // The same member cannot be offered the same course twice while the first is open.
      const twice = await call('POST', '/api/admin/enrolments/offer', staff.token, {
        phone: '13700003333',
        plan_id: planId,
        template_version_id: versionId,
      })
      expect(twice.code).toBe(409)
    })

    it('GET /api/course/bs: none for a visitor or a member without an offer, offered with the contract after one', async () => {
      const db = t().database.db
      const { system, staff } = await makeProgramme(db)
      const { planId, versionId } = await makePlanAndTemplate(call, staff.token, system)
      expect((await call('GET', `/api/course/bs?id=${system}`)).data).toMatchObject({ status: 'none' })
      const m = await makeMember(db)
      expect((await call('GET', `/api/course/bs?id=${system}`, m.token)).data).toMatchObject({ status: 'none' })
      const contractId = (await offer(call, staff.token, await fullPhone(m.id), planId, versionId)).contract_id
      const bs = await call('GET', `/api/course/bs?id=${system}`, m.token)
      expect(bs.data).toMatchObject({
        status: 'offered',
        label: '待签约',
        contract_id: contractId,
        next_payment: { label: '定金', amount_fen: 50000, status: 'due' },
      })
    })

    it('plans only for system courses; a plan that needs a contract needs a published version', async () => {
      const db = t().database.db
      const { system, parts, staff } = await makeProgramme(db)
      const notSystem = await call('POST', '/api/admin/tuition-plans', staff.token, {
        course_id: parts[0],
        title: '全款',
        kind: 'full',
        total_fen: 100000,
      })
      expect(notSystem.code).toBe(400)
      const { planId } = await makePlanAndTemplate(call, staff.token, system)
      const draft = await call<{ id: number }>('POST', '/api/admin/contract-templates', staff.token, {
        name: '草稿',
        title: '草稿合同',
        body: '这是一份尚未发布的合同草稿，内容足够二十个字以上。',
      })
      const refused = await call('POST', '/api/admin/enrolments/offer', staff.token, {
        phone: '13700004444',
        plan_id: planId,
        template_version_id: draft.data.id,
      })
      expect(refused.code).toBe(400)
      const none = await call('POST', '/api/admin/enrolments/offer', staff.token, {
        phone: '13700004444',
        plan_id: planId,
      })
      expect(none.code).toBe(400)
    })
  })

  async function fullPhone(memberId: number) {
    const [row] = await t().database.db.select({ phone: members.phone }).from(members).where(eq(members.id, memberId))
    return row!.phone!
  }

  it('GET /api/course/contact: the course’s own WeCom contact set in the course editor, else the site default', async () => {
    type Contact = { own: boolean; consult_url: string; qr_image: string | null; phone: string }
    const db = t().database.db
    const { system } = await makeProgramme(db)
    const site = await call<Contact>('GET', `/api/course/contact?id=${system}`)
    expect(site.code).toBe(200)
    expect(site.data).toMatchObject({ own: false })
    expect(site.data.consult_url).toMatch(/^https:\/\//)
    const operator = await makeMember(db, ['operator'])
    const wecom = 'https://work.weixin.qq.com/ca/cawcde1234567890'
    const qr = '/media/images/2026/11/wecom-qr.png'
    const bad = await call('PATCH', `/api/admin/courses/${system}`, operator.token, { consult_url: 'weixin://x' })
    expect(bad.code).toBe(400)
    const saved = await call<{ consult_url: string; consult_qr: string }>(
      'PATCH',
      `/api/admin/courses/${system}`,
      operator.token,
      { consult_url: wecom, consult_qr: qr },
    )
    expect(saved.code, saved.msg).toBe(200)
    expect(saved.data).toMatchObject({ consult_url: wecom, consult_qr: qr })
    const own = await call<Contact>('GET', `/api/course/contact?id=${system}`)
    expect(own.data).toMatchObject({ own: true, consult_url: wecom, qr_image: qr, phone: site.data.phone })
    // Another course keeps the site's; a QR alone keeps the site's link.
    const { system: other } = await makeProgramme(db)
    expect((await call<Contact>('GET', `/api/course/contact?id=${other}`)).data).toEqual({
      ...site.data,
      course_id: other,
    })
    await call('PATCH', `/api/admin/courses/${system}`, operator.token, { consult_url: null })
    expect((await call<Contact>('GET', `/api/course/contact?id=${system}`)).data).toMatchObject({
      own: true,
      qr_image: qr,
      consult_url: site.data.consult_url,
    })
  })
})

describe('POST /api/course/signUp rate limit', () => {
  const t = useTestApp({ RATE_LIMIT: 'true' })
  it('a flood from one address is refused with 429; another address still gets through', async () => {
    const call = api(() => t().app)
    const answers = []
    for (let i = 0; i < 12; i++)
      answers.push(
        (
          await call(
            'POST',
            '/api/course/signUp',
            undefined,
            { name: '刷单', phone: `1390000${String(i).padStart(4, '0')}`, interest: 'x' },
            {
              remoteAddress: '10.1.1.1',
            },
          )
        ).code,
      )
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(200))
    expect(answers.slice(10)).toEqual([429, 429])
    const other = await call(
      'POST',
      '/api/course/signUp',
      undefined,
      { name: '正常', phone: '13900009999', interest: 'x' },
      {
        remoteAddress: '10.1.1.2',
      },
    )
    expect(other.code).toBe(200)
  })
})
