import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import type { Db } from '#server/db/database.ts'
import { systemCourseItems } from '#server/db/schema/catalogue.ts'
import { outboxCode } from '#server/modules/auth/testing.ts'
import { makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'
import { headersOf } from '#server/modules/payments/testing.ts'

// Factories of the system-course tests (issue 15): a programme, a plan, a published template, an offer.

export interface Body<T = Record<string, unknown>> {
  code: number
  msg: string
  data: T
}

/** A white 200×100 PNG, as a drawn signature is sent (a data URL). */
export const SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAMgAAABkCAIAAABM5OhcAAAAxklEQVR42u3SMQ0AAAzDsPIn3aKYtMOGECWFA5EAY2EsjAXGwlgYC4yFsTAWGAtjYSwwFsbCWGAsjIWxwFgYC2OBsTAWxgJjYSyMBcbCWBgLjIWxMBYYC2NhLDAWxsJYYCyMhbHAWBgLY4GxMBbGAmNhLIwFxsJYGAuMhbEwFhgLY2EsMBbGwlhgLIyFscBYGAtjgbEwFsYCY2EsjAXGwlgYC4yFsTAWGAtjYSwwFsbCWBgLjIWxMBYYC2NhLDAWxsJYYCx+GyYcg0iDFNMFAAAAAElFTkSuQmCC'

const TEMPLATE_BODY =
  '甲方：自学在线教育\n乙方：{{real_name}}，手机号 {{phone}}\n' +
  '乙方报名《{{course}}》，学费方案：{{plan}}，总学费 {{total}}。\n缴费安排：{{schedule}}\n' +
  '学习期 {{study_days}} 天，可休学不超过 {{max_pause_days}} 天。\n退费规则：{{refund_rule}}\n签约日期：{{date}}'

export function api(app: () => FastifyInstance) {
  return async function call<T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    token?: string,
    payload?: unknown,
    extra: { remoteAddress?: string; headers?: Record<string, string> } = {},
  ) {
    const res = await app().inject({
      method,
      url,
      headers: { ...(token ? headersOf(token) : {}), ...extra.headers },
      ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
      ...(extra.remoteAddress && { remoteAddress: extra.remoteAddress }),
    })
    return res.json<Body<T>>()
  }
}

/** A published system course of two courses (each with a video), and an operator. */
export async function makeProgramme(db: Db) {
  const system = await makeCourse(db, { type: 'system', title: '插画系统课', priceFen: 0 })
  const parts = [await makeCourse(db, { title: '线稿基础' }), await makeCourse(db, { title: '色彩进阶' })]
  for (const [i, part] of parts.entries()) {
    await db.insert(systemCourseItems).values({ systemCourseId: system, courseId: part, sort: i })
    await makeVideo(db, part)
  }
  const staff = await makeMember(db, 'staff')
  return { system, parts, staff }
}

type Call = ReturnType<typeof api>

/** A plan (deposit 500 + balance 2500 yuan by default) and a published template version, made through the API. */
export async function makePlanAndTemplate(call: Call, staffToken: string, courseId: number, plan: object = {}) {
  const p = await call<{ id: number }>('POST', '/api/admin/tuition-plans', staffToken, {
    course_id: courseId,
    title: '定金 + 尾款',
    kind: 'deposit',
    total_fen: 300000,
    deposit_fen: 50000,
    balance_due_days: 30,
    study_days: 360,
    max_pause_days: 60,
    exit_fee_fen: 10000,
    ...plan,
  })
  expect(p.code).toBe(200)
  const v = await call<{ id: number }>('POST', '/api/admin/contract-templates', staffToken, {
    name: '体系课报名合同',
    title: '体系课学员报名合同',
    body: TEMPLATE_BODY,
  })
  expect(v.code).toBe(200)
  expect((await call('POST', `/api/admin/contract-versions/${v.data.id}/publish`, staffToken)).code).toBe(200)
  return { planId: p.data.id, versionId: v.data.id }
}

/** Staff offer the member (by phone) the plan; answers the enrolment and contract ids. */
export async function offer(call: Call, staffToken: string, phone: string, planId: number, versionId: number | null) {
  const o = await call<{ enrolment_id: number; contract_id: number | null; link: string; member_id: number }>(
    'POST',
    '/api/admin/enrolments/offer',
    staffToken,
    { phone, plan_id: planId, template_version_id: versionId },
  )
  expect(o.code, o.msg).toBe(200)
  return o.data
}

/** Signs the contract through the real endpoints: a code to the member's phone, then agree. */
export async function sign(app: () => FastifyInstance, call: Call, token: string, phone: string, contractId: number) {
  expect((await call('POST', '/api/contract/send_code', token, {}, { remoteAddress: '10.9.9.9' })).code).toBe(200)
  const code = await outboxCode(app(), phone, 'contract')
  return call<{ sha256: string; enrolment_id: number }>('POST', '/api/contract/agree', token, {
    id: contractId,
    code,
    real_name: '张小明',
    agree: true,
    signature: SIGNATURE,
  })
}
