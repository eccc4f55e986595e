import { beforeAll, describe, expect, it } from 'vitest'
import { memberWithPhone, titledCourse, useExchangeApp, type Res } from './testing.ts'

interface Sku {
  id: number
  sku_id: string
  course_id: number | null
  course_title: string | null
  vip_days: number | null
}

describe('SKU mappings in the console (/api/admin/exchange/skus)', () => {
  const t = useExchangeApp()
  let admin: Record<string, string>
  let operator: Record<string, string>
  let teacher: Record<string, string>
  let course: number

  beforeAll(async () => {
    const { db } = t().database
    admin = (await memberWithPhone(db, 'admin')).headers
    operator = (await memberWithPhone(db, 'staff')).headers
    teacher = (await memberWithPhone(db, ['teacher'])).headers
    course = await titledCourse(db, 'Photoshop 零基础入门')
  })

  const call = async <T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => {
    const res = await t().app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
    return { status: res.statusCode, body: res.json<Res<T>>() }
  }

  it('lets an operator create, list, edit and delete a mapping', async () => {
    const made = await call<Sku>('POST', '/api/admin/exchange/skus', operator, {
      platform: 'douyin_life',
      sku_id: 'A-1',
      product_name: 'PS 团购券',
      course_id: course,
    })
    expect(made.body).toMatchObject({ code: 200, data: { sku_id: 'A-1', course_title: 'Photoshop 零基础入门' } })
    const dup = await call('POST', '/api/admin/exchange/skus', operator, {
      platform: 'douyin_life',
      sku_id: 'A-1',
      product_name: 'x',
      course_id: course,
    })
    expect(dup.body.code).toBe(409)
    const list = await call<{ list: Sku[]; total: number }>('GET', '/api/admin/exchange/skus?q=A-1', operator)
    expect(list.body.data).toMatchObject({ total: 1, list: [{ sku_id: 'A-1' }] })
    const edited = await call<Sku>('PATCH', `/api/admin/exchange/skus/${made.body.data.id}`, operator, {
      product_name: 'VIP',
      course_id: null,
      vip_days: 30,
    })
    expect(edited.body.data).toMatchObject({ course_id: null, vip_days: 30 })
    expect((await call('DELETE', `/api/admin/exchange/skus/${made.body.data.id}`, operator)).body.code).toBe(200)
    expect((await call('DELETE', `/api/admin/exchange/skus/${made.body.data.id}`, operator)).body.code).toBe(404)
  })

  it('wants exactly one of a course and VIP days, and a course that exists', async () => {
    const both = await call('POST', '/api/admin/exchange/skus', admin, {
      platform: 'douyin_life',
      sku_id: 'B-1',
      product_name: 'x',
      course_id: course,
      vip_days: 3,
    })
    expect(both.status).toBe(400)
    const none = await call('POST', '/api/admin/exchange/skus', admin, {
      platform: 'douyin_life',
      sku_id: 'B-1',
      product_name: 'x',
    })
    expect(none.status).toBe(400)
    const missing = await call('POST', '/api/admin/exchange/skus', admin, {
      platform: 'douyin_life',
      sku_id: 'B-1',
      product_name: 'x',
      course_id: 999_999,
    })
    expect(missing.body.code).toBe(404)
  })

  it('refuses staff without the exchange permission', async () => {
    expect((await call('GET', '/api/admin/exchange/skus', teacher)).status).toBe(403)
    expect((await call('GET', '/api/admin/exchange/records', teacher)).status).toBe(403)
  })
})

describe('guessing order numbers (rate limit on POST /api/tiktok/order2course)', () => {
  const t = useExchangeApp({ RATE_LIMIT: 'true' })

  it('answers 429 after 20 tries a minute from one address', async () => {
    const m = await memberWithPhone(t().database.db)
    const statuses: number[] = []
    for (let i = 0; i < 21; i++) {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/tiktok/order2course',
        headers: m.headers,
        payload: { order_no: `${100000000000 + i}` },
      })
      statuses.push(res.statusCode)
    }
    // Each unknown code is answered (540 in the envelope) until the limit.
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true)
    expect(statuses[20]).toBe(429)
  })
})
