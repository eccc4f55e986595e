import { describe, expect, it } from 'vitest'
import { outboxCode, randomIp, randomPhone } from '#server/modules/auth/testing.ts'
import { memberWithPhone, titledCourse, useExchangeApp, type Res } from './testing.ts'

/**
 * /ke2's two calls for a buyer who paid on a platform (spec 6, issue 14 §2): the purchaser sign-in accepts the phone
 * a platform order was bought with, before that phone has a member; the NotExchange list then offers the order.
 */
describe('the purchaser sign-in (POST /api/send_code, /api/login with ke2) for platform buyers', () => {
  const t = useExchangeApp()
  const send = (phone: string) =>
    t().app.inject({ method: 'POST', url: '/api/send_code', payload: { phone, ke2: 1 }, remoteAddress: randomIp() })

  it('signs in a phone a Douyin shop order was bought with, which then sees the order to exchange', async () => {
    const { db } = t().database
    const admin = await memberWithPhone(db, 'admin')
    const course = await titledCourse(db, 'Excel 函数与公式实战')
    await t().app.inject({
      method: 'POST',
      url: '/api/admin/exchange/skus',
      headers: admin.headers,
      payload: { platform: 'douyin_shop', sku_id: 'DY-SKU-1002', product_name: 'Excel 课', course_id: course },
    })
    const phone = randomPhone()
    // Before any platform reported an order with it, the phone is not a purchaser's.
    const refused = (await send(phone)).json<Res>()
    expect([refused.code, refused.msg]).toEqual([402, '该手机号没有购买记录，请使用购买课程时用的手机号'])

    const { orderId } = t().app.douyinSimulator!.makeShopOrder({
      phone,
      lines: [{ skuId: 'DY-SKU-1002', productName: 'Excel 课' }],
    })
    await t().app.services.platformSync.sync(3600_000)
    expect((await send(phone)).json<Res>().code).toBe(200)
    const login = await t().app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { phone, phone_code: await outboxCode(t().app, phone), ke2: 1 },
    })
    const token = login.json<Res<{ token: string }>>().data.token
    expect(token).toBeTruthy()

    const headers = { 'zxb-token': token }
    const list = await t().app.inject({ method: 'GET', url: '/api/data/ttNotExchange', headers })
    expect(list.json<Res<{ list: { order_id: string }[] }>>().data.list.map((o) => o.order_id)).toEqual([orderId])
    const exchanged = await t().app.inject({
      method: 'POST',
      url: '/api/tiktok/order2course',
      headers,
      payload: { order_no: orderId },
    })
    expect(exchanged.json<Res<{ courses: { id: number }[] }>>().data.courses.map((c) => c.id)).toEqual([course])
  })

  it('still refuses a phone no platform reported', async () => {
    expect((await send(randomPhone())).json<Res>().code).toBe(402)
  })
})
