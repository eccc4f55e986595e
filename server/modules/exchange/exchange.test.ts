import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { entitlements } from '#server/db/schema/access.ts'
import { staffActions } from '#server/db/schema/audit.ts'
import { exchangeRecords, platformPushes } from '#server/db/schema/exchange.ts'
import { douyinPushSignature } from '#server/integrations/platforms/douyin-sign.ts'
import { SimulatedDouyin } from '#server/integrations/platforms/platforms-config.ts'
import { until } from '#server/modules/payments/testing.ts'
import { memberExchangeRecords } from './exchange.service.ts'
import { memberWithPhone, titledCourse, useExchangeApp, type Res } from './testing.ts'

interface Exchanged {
  platform: string
  order_id: string
  already: boolean
  courses: { id: number; title: string }[]
  vip_days: number
}

describe('exchanging Douyin orders for courses (POST /api/tiktok/order2course)', () => {
  const t = useExchangeApp()
  let admin: Awaited<ReturnType<typeof memberWithPhone>>
  let psCourse: number
  let excelCourse: number

  const sim = () => t().app.douyinSimulator!
  const exchange = async (headers: Record<string, string>, order_no: string) => {
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/tiktok/order2course',
      headers,
      payload: { order_no },
    })
    return res.json<Res<Exchanged>>()
  }
  const grants = (memberId: number) =>
    t()
      .database.db.select()
      .from(entitlements)
      .where(and(eq(entitlements.memberId, memberId), eq(entitlements.source, 'exchange')))

  beforeAll(async () => {
    const { db } = t().database
    admin = await memberWithPhone(db, 'admin')
    psCourse = await titledCourse(db, 'Photoshop 零基础入门')
    excelCourse = await titledCourse(db, 'Excel 办公效率')
    for (const [platform, sku_id, course_id] of [
      ['douyin_life', 'DY-SKU-1001', psCourse],
      ['douyin_shop', 'DY-SKU-1001', psCourse],
      ['douyin_shop', 'DY-SKU-1002', excelCourse],
    ] as const) {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/admin/exchange/skus',
        headers: admin.headers,
        payload: { platform, sku_id, product_name: 'PS 课', course_id },
      })
      expect(res.json<Res>().code).toBe(200)
    }
    await t().app.inject({
      method: 'POST',
      url: '/api/admin/exchange/skus',
      headers: admin.headers,
      payload: { platform: 'douyin_life', sku_id: 'DY-VIP-30', product_name: 'VIP 月卡', vip_days: 30 },
    })
  })

  it('grants the mapped course for a voucher pasted as share text, and verifies it at Douyin', async () => {
    const m = await memberWithPhone(t().database.db)
    const v = sim().makeVoucher({ skuId: 'DY-SKU-1001', title: 'PS 入门团购券' })
    const code = v.codes[0]!.replace(/(\d{4})(?=\d)/g, '$1 ')
    const body = await exchange(m.headers, `【抖音】我在抖音团购了PS课 ¥9.9，券码：${code}，复制打开抖音`)
    expect(body).toMatchObject({ code: 200, msg: '兑换成功', data: { order_id: v.orderId, already: false } })
    expect(body.data.courses.map((c) => c.title)).toEqual(['Photoshop 零基础入门'])
    expect(sim().voucher(v.certificateIds[0]!)!.state).toBe('used')
    // What the buyer paid Douyin for the voucher (the simulator sells SKU-1001 at ¥99): the sales figures count it.
    const [line] = await t().database.db.select().from(exchangeRecords).where(eq(exchangeRecords.orderId, v.orderId))
    expect(line!.amountFen).toBe(9900)
    const [g] = await grants(m.id)
    expect(g).toMatchObject({ courseId: psCourse, sourceRef: `douyin_life:${v.orderId}:${v.certificateIds[0]}` })
    const access = await t().app.services.access.access(m.id, { courseId: psCourse })
    expect(access.allowed).toBe(true)
    expect(await memberExchangeRecords(t().database.db, m.id)).toMatchObject([
      { kind: 'exchange', order_id: v.orderId, course_title: 'Photoshop 零基础入门', status: 'granted' },
    ]) // The member's exchange record (/order4) lists it next to redeem codes and points.
    const records = await t().app.inject({ method: 'GET', url: '/api/exchange_records', headers: m.headers })
    expect(records.json<{ data: { list: unknown[] } }>().data.list).toMatchObject([
      { kind: 'exchange', title: '《Photoshop 零基础入门》', state: 'active', course_id: psCourse },
    ])
  })

  it('answers the same member again without granting anything new; anyone else hears who has it', async () => {
    const { db } = t().database
    const m = await memberWithPhone(db)
    const other = await memberWithPhone(db)
    const v = sim().makeVoucher({ skuId: 'DY-SKU-1001', title: 'PS 入门团购券' })
    expect((await exchange(m.headers, v.codes[0]!)).code).toBe(200)
    const again = await exchange(m.headers, v.codes[0]!)
    expect(again).toMatchObject({ code: 200, msg: '你已兑换过这个订单', data: { already: true } })
    expect(again.data.courses).toHaveLength(1)
    const theirs = await exchange(other.headers, v.codes[0]!)
    expect(theirs.code).toBe(545)
    expect(theirs.msg).toContain(`${m.phone.slice(0, 3)}****${m.phone.slice(-4)}`)
    expect(await grants(m.id)).toHaveLength(1)
    expect(await grants(other.id)).toHaveLength(0)
  })

  it('gives VIP days for a voucher mapped to VIP', async () => {
    const m = await memberWithPhone(t().database.db)
    const v = sim().makeVoucher({ skuId: 'DY-VIP-30', title: 'VIP 月卡' })
    expect((await exchange(m.headers, v.codes[0]!)).data.vip_days).toBe(30)
    expect(await t().app.services.vip.membership(m.id)).toMatchObject({ active: true })
  })

  it('refuses a voucher used at a counter, another shop’s voucher, an unknown code and nothing to read', async () => {
    const m = await memberWithPhone(t().database.db)
    const used = sim().makeVoucher({ skuId: 'DY-SKU-1001', title: 'PS' })
    sim().useElsewhere(used.codes[0]!)
    expect((await exchange(m.headers, used.codes[0]!)).code).toBe(544)
    const foreign = sim().makeVoucher({ skuId: 'DY-SKU-1001', title: 'PS', foreign: true })
    expect((await exchange(m.headers, foreign.codes[0]!)).code).toBe(541)
    expect((await exchange(m.headers, '999999999999')).code).toBe(540)
    expect((await exchange(m.headers, '我的订单')).code).toBe(540)
    expect(await grants(m.id)).toHaveLength(0)
  })

  it('names the product of an unmapped SKU and sends the buyer to service; the voucher stays unused', async () => {
    const m = await memberWithPhone(t().database.db)
    const v = sim().makeVoucher({ skuId: 'DY-SKU-9999', title: '未上架的测试商品' })
    const body = await exchange(m.headers, v.codes[0]!)
    expect(body).toMatchObject({ code: 546, msg: '「未上架的测试商品」暂未关联课程，请联系客服处理' })
    expect(sim().voucher(v.certificateIds[0]!)!.state).toBe('unused')
  })

  it('exchanges a Douyin shop order only for the member whose phone bought it', async () => {
    const { db } = t().database
    const buyer = await memberWithPhone(db)
    const other = await memberWithPhone(db)
    const { orderId } = sim().makeShopOrder({
      phone: buyer.phone,
      lines: [
        { skuId: 'DY-SKU-1001', productName: 'PS 课' },
        { skuId: 'DY-SKU-1002', productName: 'Excel 课' },
      ],
    })
    const wrong = await exchange(other.headers, `订单编号：${orderId}`)
    expect(wrong.code).toBe(547)
    const ok = await exchange(buyer.headers, orderId)
    expect(ok.code).toBe(200)
    expect(ok.data.courses.map((c) => c.id).sort()).toEqual([psCourse, excelCourse].sort())
    expect(await grants(buyer.id)).toHaveLength(2)
  })

  it('refuses a refunded shop order and revokes exactly what a refunded order granted (the sync job)', async () => {
    const { db } = t().database
    const buyer = await memberWithPhone(db)
    const refunded = sim().makeShopOrder({
      phone: buyer.phone,
      lines: [{ skuId: 'DY-SKU-1002', productName: 'Excel' }],
    })
    sim().refundShopOrder(refunded.orderId)
    expect((await exchange(buyer.headers, refunded.orderId)).code).toBe(543)

    const kept = sim().makeShopOrder({ phone: buyer.phone, lines: [{ skuId: 'DY-SKU-1002', productName: 'Excel' }] })
    const lost = sim().makeShopOrder({ phone: buyer.phone, lines: [{ skuId: 'DY-SKU-1001', productName: 'PS' }] })
    expect((await exchange(buyer.headers, kept.orderId)).code).toBe(200)
    expect((await exchange(buyer.headers, lost.orderId)).code).toBe(200)
    sim().refundShopOrder(lost.orderId)
    expect((await t().app.services.platformSync.sync(3600_000)).revoked).toBe(1)
    const rows = await grants(buyer.id)
    expect(rows.find((g) => g.courseId === psCourse)!.revokedAt).not.toBeNull()
    expect(rows.find((g) => g.courseId === excelCourse)!.revokedAt).toBeNull()
    const [record] = await db.select().from(exchangeRecords).where(eq(exchangeRecords.orderId, lost.orderId))
    expect(record).toMatchObject({ status: 'revoked', revokeReason: '抖店订单已退款或取消', amountFen: 9900 })
    expect((await t().app.services.platformSync.sync(3600_000)).revoked).toBe(0)
  })

  it('lists the member’s unexchanged shop orders (GET /api/data/ttNotExchange) until they are exchanged', async () => {
    const buyer = await memberWithPhone(t().database.db)
    const { orderId } = sim().makeShopOrder({
      phone: buyer.phone,
      lines: [{ skuId: 'DY-SKU-1002', productName: 'Excel 课' }],
    })
    await t().app.services.platformSync.sync(3600_000)
    const list = async () =>
      (await t().app.inject({ method: 'GET', url: '/api/data/ttNotExchange', headers: buyer.headers })).json<
        Res<{ list: { order_id: string; lines: { product_name: string; exchanged: boolean }[] }[] }>
      >().data.list
    expect(await list()).toMatchObject([{ order_id: orderId, lines: [{ product_name: 'Excel 课', exchanged: false }] }])
    await exchange(buyer.headers, orderId)
    expect(await list()).toEqual([])
    const anonymous = await t().app.inject({ method: 'GET', url: '/api/data/ttNotExchange' })
    expect(anonymous.json<Res>().code).toBe(301)
  })
})

describe('Douyin pushes (POST /api/douyin/notify)', () => {
  const t = useExchangeApp()
  const sim = () => t().app.douyinSimulator!
  let course: number

  beforeAll(async () => {
    const { db } = t().database
    const admin = await memberWithPhone(db, 'admin')
    course = await titledCourse(db, 'PS')
    await t().app.inject({
      method: 'POST',
      url: '/api/admin/exchange/skus',
      headers: admin.headers,
      payload: { platform: 'douyin_life', sku_id: 'DY-SKU-1001', product_name: 'PS', course_id: course },
    })
  })

  const exchanged = async () => {
    const m = await memberWithPhone(t().database.db)
    const v = sim().makeVoucher({ skuId: 'DY-SKU-1001', title: 'PS' })
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/tiktok/order2course',
      headers: m.headers,
      payload: { order_no: v.codes[0] },
    })
    expect(res.json<Res>().code).toBe(200)
    return { m, v }
  }
  const active = async (memberId: number) =>
    (await t().app.services.access.access(memberId, { courseId: course })).allowed

  it('revokes what a refunded voucher granted, with the reason, and ignores the replayed push', async () => {
    const { m, v } = await exchanged()
    await sim().refundVoucherOrder(v.orderId)
    expect(await active(m.id)).toBe(false)
    const [record] = await t().database.db.select().from(exchangeRecords).where(eq(exchangeRecords.orderId, v.orderId))
    expect(record).toMatchObject({ status: 'revoked', revokeReason: '抖音团购券已退款' })
    // The same message again: answered, recorded once, nothing changes.
    await sim().replay(v.certificateIds[0]!)
    const pushes = await t()
      .database.db.select()
      .from(platformPushes)
      .where(eq(platformPushes.msgId, `${v.certificateIds[0]}-refund_success`))
    expect(pushes).toHaveLength(1)
  })

  it('refuses a push with a bad signature and changes nothing', async () => {
    const { m, v } = await exchanged()
    const body = JSON.stringify({
      event: 'life_trade_certificate_notify',
      client_key: SimulatedDouyin.clientKey,
      content: JSON.stringify({
        action: 'refund_success',
        certificate: { order_id: v.orderId, certificate_id: v.certificateIds[0] },
      }),
    })
    const send = (signature: string) =>
      t().app.inject({
        method: 'POST',
        url: '/api/douyin/notify',
        headers: { 'content-type': 'application/json', 'msg-id': 'forged-1', 'x-douyin-signature': signature },
        payload: body,
      })
    expect((await send(douyinPushSignature('not-our-secret', body))).statusCode).toBe(400)
    expect((await send('')).statusCode).toBe(400)
    expect(await active(m.id)).toBe(true)
    // The genuine signature over the same bytes is accepted.
    const genuine = await send(douyinPushSignature(SimulatedDouyin.clientSecret, body))
    expect(genuine.json()).toEqual({ err_no: 0, err_tips: 'success' })
    expect(await active(m.id)).toBe(false)
  })

  it('answers the webhook check with its challenge', async () => {
    const body = JSON.stringify({
      event: 'verify_webhook',
      client_key: SimulatedDouyin.clientKey,
      content: { challenge: 12345 },
    })
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/douyin/notify',
      headers: {
        'content-type': 'application/json',
        'x-douyin-signature': douyinPushSignature(SimulatedDouyin.clientSecret, body),
      },
      payload: body,
    })
    expect(res.json()).toEqual({ challenge: 12345 })
  })

  it('lets an operator revoke one exchange, giving a voucher verified within the hour back at Douyin', async () => {
    const { db } = t().database
    const { m, v } = await exchanged()
    const admin = await memberWithPhone(db, 'admin')
    const [record] = await db.select().from(exchangeRecords).where(eq(exchangeRecords.orderId, v.orderId))
    const res = await t().app.inject({
      method: 'POST',
      url: `/api/admin/exchange/records/${record!.id}/revoke`,
      headers: admin.headers,
      payload: { reason: '买家要求退回' },
    })
    expect(res.json<Res>()).toMatchObject({ code: 200, data: { revoked: 1, voucher_returned: true } })
    expect(await active(m.id)).toBe(false)
    expect(sim().voucher(v.certificateIds[0]!)!.state).toBe('unused')
    // The staff action log is written after the answer.
    await until(async () =>
      (await db.select().from(staffActions).where(eq(staffActions.memberId, admin.id))).some(
        (a) => a.route === '/api/admin/exchange/records/:id/revoke',
      ),
    )
  })
})
