import { inArray } from 'drizzle-orm'
import type { DbOrTx } from './database.ts'
import { courses } from './schema/catalogue.ts'
import { exchangeSkus } from './schema/exchange.ts'

/**
 * The demo's SKU mappings: the Douyin simulator's products (server/integrations/platforms/douyin-simulator.ts)
 * mapped to demo courses and VIP days, for group-buy vouchers and shop orders alike, so a person can buy on the
 * simulator and exchange on /data/tt at once. Its fourth product stays unmapped (the "contact service" answer).
 */
export async function seedExchangeSkus(db: DbOrTx, now: Date) {
  const titles = { 'DY-SKU-1001': 'Photoshop 零基础入门', 'DY-SKU-1002': 'Excel 函数与公式实战' } as const
  const found = await db
    .select({ id: courses.id, title: courses.title })
    .from(courses)
    .where(inArray(courses.title, Object.values(titles)))
  const idOf = new Map(found.map((c) => [c.title, c.id]))
  const rows = (['douyin_life', 'douyin_shop'] as const).flatMap((platform) => [
    ...Object.entries(titles).map(([skuId, title]) => ({
      platform,
      skuId,
      productName: `${title}（抖音）`,
      courseId: idOf.get(title) ?? null,
      vipDays: null,
    })),
    { platform, skuId: 'DY-VIP-30', productName: '自学 VIP 月卡（抖音）', courseId: null, vipDays: 30 },
  ])
  await db
    .insert(exchangeSkus)
    .values(
      rows
        .filter((r) => r.courseId !== null || r.vipDays !== null)
        .map((r) => ({ ...r, note: '演示数据', createdAt: now, updatedAt: now })),
    )
    .onConflictDoNothing()
}
