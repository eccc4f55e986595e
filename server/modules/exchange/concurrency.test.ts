import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { entitlements } from '#server/db/schema/access.ts'
import { exchangeRecords } from '#server/db/schema/exchange.ts'
import { memberWithPhone, titledCourse, useExchangeApp, type Res } from './testing.ts'

describe('one Douyin voucher exchanged 20 times at once (real PostgreSQL)', () => {
  const t = useExchangeApp()

  it('grants once, verifies once; the other 19 hear who has it', async () => {
    const { db } = t().database
    const admin = await memberWithPhone(db, 'admin')
    const course = await titledCourse(db, 'PS')
    await t().app.inject({
      method: 'POST',
      url: '/api/admin/exchange/skus',
      headers: admin.headers,
      payload: { platform: 'douyin_life', sku_id: 'DY-SKU-1001', product_name: 'PS', course_id: course },
    })
    const v = t().app.douyinSimulator!.makeVoucher({ skuId: 'DY-SKU-1001', title: 'PS' })
    const people = await Promise.all(Array.from({ length: 20 }, () => memberWithPhone(db)))
    const answers = await Promise.all(
      people.map((m) =>
        t()
          .app.inject({
            method: 'POST',
            url: '/api/tiktok/order2course',
            headers: m.headers,
            payload: { order_no: v.codes[0] },
          })
          .then((r) => r.json<Res<{ already: boolean }>>()),
      ),
    )
    const granted = answers.filter((a) => a.code === 200 && !a.data.already)
    expect(granted).toHaveLength(1)
    // Everyone else: taken (the record exists), or the voucher already used at Douyin by the winner.
    expect(answers.filter((a) => a.code === 545 || a.code === 544)).toHaveLength(19)
    const rows = await db
      .select()
      .from(entitlements)
      .where(and(eq(entitlements.courseId, course), eq(entitlements.source, 'exchange')))
    expect(rows).toHaveLength(1)
    expect(await db.select().from(exchangeRecords).where(eq(exchangeRecords.orderId, v.orderId))).toHaveLength(1)
  })

  it('grants a shop order once when its buyer sends it 20 times at once (the unique key alone decides)', async () => {
    const { db } = t().database
    const buyer = await memberWithPhone(db)
    const course = await titledCourse(db, 'Excel')
    const admin = await memberWithPhone(db, 'admin')
    await t().app.inject({
      method: 'POST',
      url: '/api/admin/exchange/skus',
      headers: admin.headers,
      payload: { platform: 'douyin_shop', sku_id: 'DY-SKU-1002', product_name: 'Excel', course_id: course },
    })
    const { orderId } = t().app.douyinSimulator!.makeShopOrder({
      phone: buyer.phone,
      lines: [{ skuId: 'DY-SKU-1002', productName: 'Excel' }],
    })
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t()
          .app.inject({
            method: 'POST',
            url: '/api/tiktok/order2course',
            headers: buyer.headers,
            payload: { order_no: orderId },
          })
          .then((r) => r.json<Res<{ already: boolean }>>()),
      ),
    )
    expect(answers.every((a) => a.code === 200)).toBe(true)
    expect(answers.filter((a) => !a.data.already)).toHaveLength(1)
    const rows = await db
      .select()
      .from(entitlements)
      .where(and(eq(entitlements.memberId, buyer.id), eq(entitlements.source, 'exchange')))
    expect(rows).toHaveLength(1)
  })
})
