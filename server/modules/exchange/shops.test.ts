import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { entitlements } from '#server/db/schema/access.ts'
import { exchangeRecords, platformPushes } from '#server/db/schema/exchange.ts'
import type { ShopOrderStore, SimOrder } from '#server/integrations/platforms/shop-simulator.ts'
import { kuaishouEncryptPush } from '#server/integrations/platforms/shop-sign.ts'
import type { FastifyInstance } from 'fastify'
import { memberWithPhone, titledCourse, useExchangeApp, type Res } from './testing.ts'

// The Kuaishou shop, Xiaohongshu and WeChat Shop exchanges (issue 14 §2), each against its simulator through its
// real adapter: the same rules, one table of what differs.

interface Shop {
  platform: 'kuaishou' | 'xiaohongshu' | 'wechat_shop'
  prefix: string
  exchangePath: string
  listPath: string
  notifyPath: string | null
  sim: (app: FastifyInstance) => ShopOrderStore & { push?: (o: SimOrder, ...rest: never[]) => Promise<unknown> }
  share: (orderId: string) => string
  /** The answer for another shop's order: not ours (541), or not found with our token (540). */
  foreignCode: number
}

const shops: Shop[] = [
  {
    platform: 'kuaishou',
    prefix: 'KS',
    exchangePath: '/api/ksxd/order2course',
    listPath: '/api/data/ksNotExchange',
    notifyPath: '/api/ksxd/notify',
    sim: (app) => app.shopSimulators.kuaishou!,
    share: (id) => `【快手小店】我买了「PS 课」¥9.9 订单编号：${id.replace(/(\d{4})(?=\d)/g, '$1 ')} 复制打开快手`,
    foreignCode: 541,
  },
  {
    platform: 'xiaohongshu',
    prefix: 'XHS',
    exchangePath: '/api/xhs/order2course',
    listPath: '/api/data/xhsNotExchange',
    notifyPath: null,
    sim: (app) => app.shopSimulators.xiaohongshu!,
    share: (id) => `小红书订单号：${id.toLowerCase()} 下单时间 2026-11-26`,
    foreignCode: 541,
  },
  {
    platform: 'wechat_shop',
    prefix: 'WXS',
    exchangePath: '/api/wechatShop/order2course',
    listPath: '/api/data/wechatShopNotExchange',
    notifyPath: '/api/wechatShop/notify',
    sim: (app) => app.shopSimulators.wechat_shop!,
    share: (id) => ` ${id} `,
    foreignCode: 540,
  },
]

describe.each(shops)('exchanging $platform orders for courses', (shop) => {
  const t = useExchangeApp()
  let psCourse: number
  let excelCourse: number
  const sim = () => shop.sim(t().app)
  const exchange = async (headers: Record<string, string>, order_no: string) =>
    (await t().app.inject({ method: 'POST', url: shop.exchangePath, headers, payload: { order_no } })).json<
      Res<{ order_id: string; already: boolean; courses: { title: string }[] }>
    >()
  const grants = (memberId: number) =>
    t()
      .database.db.select()
      .from(entitlements)
      .where(and(eq(entitlements.memberId, memberId), eq(entitlements.source, 'exchange')))
  const buy = (phone: string, sku: string, foreign = false) =>
    sim().makeOrder({ phone, lines: [{ skuId: `${shop.prefix}-${sku}`, productName: `商品 ${sku}` }], foreign })
  /** The platform refunds an order and tells us: its push where it has one, else the next sync round. */
  const refund = async (orderId: string) => {
    const o = sim().refund(orderId)!
    if (shop.notifyPath) await sim().push!(o)
    else await t().app.services.platformSync.sync(3600_000)
  }

  beforeAll(async () => {
    const { db } = t().database
    const admin = await memberWithPhone(db, 'admin')
    psCourse = await titledCourse(db, 'Photoshop 零基础入门')
    excelCourse = await titledCourse(db, 'Excel 办公效率')
    for (const [sku, course_id] of [
      ['SKU-1001', psCourse],
      ['SKU-1002', excelCourse],
    ] as const) {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/admin/exchange/skus',
        headers: admin.headers,
        payload: { platform: shop.platform, sku_id: `${shop.prefix}-${sku}`, product_name: 'PS 课', course_id },
      })
      expect(res.json<Res>().code).toBe(200)
    }
  })

  it('grants the mapped course for the order pasted as share text; the same order again grants nothing new', async () => {
    const buyer = await memberWithPhone(t().database.db)
    const o = buy(buyer.phone, 'SKU-1001')
    const first = await exchange(buyer.headers, shop.share(o.orderId))
    expect(first).toMatchObject({ code: 200, msg: '兑换成功', data: { order_id: o.orderId, already: false } })
    expect(first.data.courses.map((c) => c.title)).toEqual(['Photoshop 零基础入门'])
    expect(await grants(buyer.id)).toMatchObject([
      { courseId: psCourse, sourceRef: `${shop.platform}:${o.orderId}:${o.lines[0]!.lineId}`, revokedAt: null },
    ])
    expect((await t().app.services.access.access(buyer.id, { courseId: psCourse })).allowed).toBe(true)
    // What the buyer paid the platform for the line (the simulator sells SKU-1001 at ¥99), for the sales figures.
    const [record] = await t().database.db.select().from(exchangeRecords).where(eq(exchangeRecords.orderId, o.orderId))
    expect(record!.amountFen).toBe(9900)
    expect(await exchange(buyer.headers, o.orderId)).toMatchObject({ code: 200, data: { already: true } })
    expect(await grants(buyer.id)).toHaveLength(1)
  })

  it("refuses another member's order, another shop's order, a refunded order and an unmapped SKU", async () => {
    const { db } = t().database
    const buyer = await memberWithPhone(db)
    const other = await memberWithPhone(db)
    const mine = buy(buyer.phone, 'SKU-1002')
    expect(await exchange(other.headers, mine.orderId)).toMatchObject({ code: 547 })
    expect((await exchange(buyer.headers, buy(buyer.phone, 'SKU-1002', true).orderId)).code).toBe(shop.foreignCode)
    const refunded = buy(buyer.phone, 'SKU-1002')
    sim().refund(refunded.orderId)
    expect((await exchange(buyer.headers, refunded.orderId)).code).toBe(543)
    const unmapped = buy(buyer.phone, 'SKU-9999')
    expect(await exchange(buyer.headers, unmapped.orderId)).toMatchObject({
      code: 546,
      msg: '「商品 SKU-9999」暂未关联课程，请联系客服处理',
    })
    expect(await exchange(buyer.headers, '12345')).toMatchObject({ code: 540 })
    expect(await grants(buyer.id)).toEqual([])
    expect(await grants(other.id)).toEqual([])
  })

  it('a platform refund revokes exactly what that order granted, with the reason', async () => {
    const { db } = t().database
    const buyer = await memberWithPhone(db)
    const kept = buy(buyer.phone, 'SKU-1002')
    const lost = buy(buyer.phone, 'SKU-1001')
    expect((await exchange(buyer.headers, kept.orderId)).code).toBe(200)
    expect((await exchange(buyer.headers, lost.orderId)).code).toBe(200)
    await refund(lost.orderId)
    const rows = await grants(buyer.id)
    expect(rows.find((g) => g.courseId === psCourse)!.revokedAt).not.toBeNull()
    expect(rows.find((g) => g.courseId === excelCourse)!.revokedAt).toBeNull()
    const [record] = await db.select().from(exchangeRecords).where(eq(exchangeRecords.orderId, lost.orderId))
    expect(record).toMatchObject({ status: 'revoked' })
    expect(record!.revokeReason).toMatch(/已退款或取消$/)
  })

  it('lists the member’s unexchanged orders until they are exchanged', async () => {
    const buyer = await memberWithPhone(t().database.db)
    const o = buy(buyer.phone, 'SKU-1002')
    await t().app.services.platformSync.sync(3600_000)
    const list = async () =>
      (await t().app.inject({ method: 'GET', url: shop.listPath, headers: buyer.headers })).json<
        Res<{ list: { platform: string; order_id: string }[] }>
      >().data.list
    expect(await list()).toMatchObject([{ platform: shop.platform, order_id: o.orderId }])
    await exchange(buyer.headers, o.orderId)
    expect(await list()).toEqual([])
  })

  it('20 exchanges of one order at once grant once (real PostgreSQL)', async () => {
    const buyer = await memberWithPhone(t().database.db)
    const o = buy(buyer.phone, 'SKU-1001')
    const answers = await Promise.all(Array.from({ length: 20 }, () => exchange(buyer.headers, o.orderId)))
    expect(answers.every((a) => a.code === 200)).toBe(true)
    expect(answers.filter((a) => !a.data.already)).toHaveLength(1)
    expect(await grants(buyer.id)).toHaveLength(1)
  })
})

describe('pushes of the Kuaishou shop and WeChat Shop', () => {
  const t = useExchangeApp()
  let course: number
  beforeAll(async () => {
    const { db } = t().database
    const admin = await memberWithPhone(db, 'admin')
    course = await titledCourse(db, 'PS')
    for (const [platform, sku_id] of [
      ['kuaishou', 'KS-SKU-1001'],
      ['wechat_shop', 'WXS-SKU-1001'],
    ])
      await t().app.inject({
        method: 'POST',
        url: '/api/admin/exchange/skus',
        headers: admin.headers,
        payload: { platform, sku_id, product_name: 'PS', course_id: course },
      })
  })
  const exchanged = async (path: string, store: ShopOrderStore, prefix: string) => {
    const buyer = await memberWithPhone(t().database.db)
    const o = store.makeOrder({ phone: buyer.phone, lines: [{ skuId: `${prefix}-SKU-1001`, productName: 'PS' }] })
    const res = await t().app.inject({
      method: 'POST',
      url: path,
      headers: buyer.headers,
      payload: { order_no: o.orderId },
    })
    expect(res.json<Res>().code).toBe(200)
    return o
  }
  const revoked = async (orderId: string) =>
    (await t().database.db.select().from(exchangeRecords).where(eq(exchangeRecords.orderId, orderId)))[0]!.status

  it('Kuaishou: a push that does not decrypt with our key changes nothing (400); a replay is handled once', async () => {
    const ks = t().app.shopSimulators.kuaishou!
    const o = await exchanged('/api/ksxd/order2course', ks, 'KS')
    ks.refund(o.orderId)
    const forged = kuaishouEncryptPush(
      Buffer.from('not-our-aes-key!').toString('base64'),
      JSON.stringify({
        eventId: 'x',
        appKey: 'ks000000000000000001',
        event: 'kwaishop_order_statusChange',
        info: `{"oid":${o.orderId}}`,
      }),
    )
    const bad = await t().app.inject({
      method: 'POST',
      url: '/api/ksxd/notify',
      headers: { 'content-type': 'text/plain' },
      payload: forged,
    })
    expect(bad.statusCode).toBe(400)
    expect(await revoked(o.orderId)).toBe('granted')
    const first = (await ks.push(o, 'kwaishop_order_statusChange', 'evt-1')) as Response
    expect(await first.json()).toEqual({ result: 1 })
    expect(await revoked(o.orderId)).toBe('revoked')
    const again = (await ks.push(o, 'kwaishop_order_statusChange', 'evt-1')) as Response
    expect(again.status).toBe(200)
    const seen = await t().database.db.select().from(platformPushes).where(eq(platformPushes.msgId, 'evt-1'))
    expect(seen).toHaveLength(1)
  })

  it('WeChat Shop: a bad signature changes nothing (400); a replay is handled once; the URL check echoes', async () => {
    const wx = t().app.shopSimulators.wechat_shop!
    const o = await exchanged('/api/wechatShop/order2course', wx, 'WXS')
    wx.refund(o.orderId)
    const bad = (await wx.push(o, 1764115200, 'wrongToken')) as Response
    expect(bad.status).toBe(400)
    expect(await revoked(o.orderId)).toBe('granted')
    const first = (await wx.push(o, 1764115201)) as Response
    expect(await first.text()).toBe('success')
    expect(await revoked(o.orderId)).toBe('revoked')
    await wx.push(o, 1764115201)
    const seen = await t()
      .database.db.select()
      .from(platformPushes)
      .where(eq(platformPushes.msgId, `channels_ec_aftersale_update:${o.orderId}:1764115201`))
    expect(seen).toHaveLength(1)
  })
})
