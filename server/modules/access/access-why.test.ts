import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { courses } from '#server/db/schema/catalogue.ts'
import { extendVipMembership } from './access.service.ts'
import { memberWithPhone, titledCourse, useExchangeApp, type Res } from '#server/modules/exchange/testing.ts'
import { makeCourse } from '#tests/support/media-fixtures.ts'
import { stepUpHeaders } from '#tests/support/staff.ts'
import type { CourseAccessWhy } from '#shared/api/access-why.ts'

const HOUR = 3_600_000

describe('GET /api/course/access/why: why the member has a course, or no longer has it', () => {
  const t = useExchangeApp()
  let staff: Awaited<ReturnType<typeof memberWithPhone>>
  let course: number

  const why = async (headers: Record<string, string>, courseId: unknown) =>
    (
      await t().app.inject({
        method: 'GET',
        url: '/api/course/access/why',
        headers,
        query: { course_id: String(courseId) },
      })
    ).json<Res<CourseAccessWhy>>()

  beforeAll(async () => {
    const { db } = t().database
    staff = await memberWithPhone(db, 'admin')
    course = await titledCourse(db, 'Photoshop 零基础入门')
    await t().app.inject({
      method: 'POST',
      url: '/api/admin/exchange/skus',
      headers: staff.headers,
      payload: { platform: 'douyin_life', sku_id: 'DY-SKU-1001', product_name: 'PS 团购', course_id: course },
    })
  })

  it('names a Douyin voucher exchange, then the platform refund that took it back', async () => {
    const m = await memberWithPhone(t().database.db)
    expect(await why(m.headers, course)).toMatchObject({ code: 200, data: { allowed: false, grants: [], ended: [] } })
    const v = t().app.douyinSimulator!.makeVoucher({ skuId: 'DY-SKU-1001', title: 'PS 团购' })
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/tiktok/order2course',
      headers: m.headers,
      payload: { order_no: v.codes[0]! },
    })
    expect(res.json<Res>().code).toBe(200)
    const granted = (await why(m.headers, course)).data
    expect(granted.allowed).toBe(true)
    expect(granted.grants).toMatchObject([
      { source: 'exchange', label: '抖音团购券兑换', detail: `订单 ${v.orderId}`, expires_at: null },
    ])

    await t().app.douyinSimulator!.refundVoucherOrder(v.orderId)
    const revoked = (await why(m.headers, course)).data
    expect(revoked).toMatchObject({ allowed: false, grants: [] })
    expect(revoked.ended).toMatchObject([{ source: 'exchange', label: '抖音团购券兑换', reason: '抖音团购券已退款' }])
  })

  it('names a redeem code and its batch, then the revoked code', async () => {
    const m = await memberWithPhone(t().database.db)
    const now = Date.now()
    const created = await t().app.inject({
      method: 'POST',
      url: '/api/admin/redeem/batches',
      headers: { ...staff.headers, ...stepUpHeaders(staff.token) },
      payload: {
        name: '书店渠道',
        course_ids: [course],
        count: 1,
        valid_from: new Date(now - HOUR).toISOString(),
        valid_until: new Date(now + 24 * HOUR).toISOString(),
      },
    })
    const code = created.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')[1]!
      .split(',')[1]!
    const used = await t().app.inject({
      method: 'POST',
      url: '/api/redeem_code/exchange',
      headers: m.headers,
      payload: { data: code },
    })
    expect(used.json<Res>().code).toBe(200)
    expect((await why(m.headers, course)).data.grants).toMatchObject([
      { source: 'redeem', label: '通过兑换码获得', detail: '兑换码 · 书店渠道' },
    ])

    const batchId = created.headers['x-redeem-batch-id'] as string
    const codes = await t().app.inject({
      method: 'GET',
      url: '/api/admin/redeem/codes',
      headers: staff.headers,
      query: { batch_id: batchId },
    })
    const codeId = codes.json<Res<{ list: { id: number }[] }>>().data.list[0]!.id
    await t().app.inject({
      method: 'POST',
      url: `/api/admin/redeem/codes/${codeId}/revoke`,
      headers: staff.headers,
      payload: { reason: '误发' },
    })
    const after = (await why(m.headers, course)).data
    expect(after.allowed).toBe(false)
    expect(after.ended).toMatchObject([{ source: 'redeem', reason: '兑换码已被作废，课程已收回' }])
  })

  it('names a running VIP on a VIP-free course, and a free course', async () => {
    const { db } = t().database
    const vipFree = await makeCourse(db, { title: 'VIP 课', vipFree: true })
    const free = await makeCourse(db, { title: '公开课', isFree: true })
    const m = await memberWithPhone(db)
    // VIP days as a paid VIP order gives them (the access module's own door).
    await extendVipMembership(db, m.id, 30, new Date())
    expect((await why(m.headers, vipFree)).data.grants).toMatchObject([{ source: 'vip_membership', label: '会员免费' }])
    expect((await why(m.headers, free)).data).toMatchObject({ allowed: true, grants: [{ label: '免费课程' }] })
  })

  it('asks for a login, names a bad id, and answers 404 for an unknown or unpublished course', async () => {
    const anonymous = await t().app.inject({ method: 'GET', url: '/api/course/access/why', query: { course_id: '1' } })
    expect(anonymous.json<Res>().code).toBe(301)
    const m = await memberWithPhone(t().database.db)
    const bad = await t().app.inject({
      method: 'GET',
      url: '/api/course/access/why',
      headers: m.headers,
      query: { course_id: 'abc' },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json<{ data: unknown }>().data).toEqual({ field: 'course_id' })
    expect(await why(m.headers, 99_999_999)).toMatchObject({ code: 404, msg: '课程不存在' })
    await t().database.db.update(courses).set({ status: 'draft' }).where(eq(courses.id, course))
    expect((await why(m.headers, course)).code).toBe(404)
    await t().database.db.update(courses).set({ status: 'published' }).where(eq(courses.id, course))
  })
})
