import { inArray } from 'drizzle-orm'
import type { DbOrTx } from './database.ts'
import { courses } from './schema/catalogue.ts'
import { ExchangeShops, type ExchangeShop } from '#shared/exchange-platforms.ts'
import { exchangeSkus } from './schema/exchange.ts'

/**
 * The demo's SKU mappings: the platform simulators' products (server/integrations/platforms/simulator-page.ts,
 * SKU prefixes DY, KS, XHS, WXS) mapped to demo courses and VIP days, on every platform, so a person can buy on a
 * simulator and exchange on its /data/* page at once. The fourth product stays unmapped ("contact service").
 */
export async function seedExchangeSkus(db: DbOrTx, now: Date) {
  const titles = { 'SKU-1001': 'Photoshop 零基础入门', 'SKU-1002': 'Excel 函数与公式实战' } as const
  const found = await db
    .select({ id: courses.id, title: courses.title })
    .from(courses)
    .where(inArray(courses.title, Object.values(titles)))
  const idOf = new Map(found.map((c) => [c.title, c.id]))
  const prefixes = { douyin: 'DY', kuaishou: 'KS', xiaohongshu: 'XHS', wechat_shop: 'WXS' } as const
  const shops = (Object.keys(ExchangeShops) as ExchangeShop[]).flatMap((shop) =>
    ExchangeShops[shop].platforms.map((platform) => ({
      platform,
      prefix: prefixes[shop],
      name: ExchangeShops[shop].name,
    })),
  )
  const rows = shops.flatMap(({ platform, prefix, name }) => [
    ...Object.entries(titles).map(([sku, title]) => ({
      platform,
      skuId: `${prefix}-${sku}`,
      productName: `${title}（${name}）`,
      courseId: idOf.get(title) ?? null,
      vipDays: null,
    })),
    { platform, skuId: `${prefix}-VIP-30`, productName: `自学 VIP 月卡（${name}）`, courseId: null, vipDays: 30 },
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
