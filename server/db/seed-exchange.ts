import { inArray } from 'drizzle-orm'
import type { DbOrTx } from './database.ts'
import { courses } from './schema/catalogue.ts'
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
  const shops = [
    { platform: 'douyin_life', prefix: 'DY', name: '抖音' },
    { platform: 'douyin_shop', prefix: 'DY', name: '抖音' },
    { platform: 'kuaishou', prefix: 'KS', name: '快手' },
    { platform: 'xiaohongshu', prefix: 'XHS', name: '小红书' },
    { platform: 'wechat_shop', prefix: 'WXS', name: '微信小店' },
  ] as const
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
