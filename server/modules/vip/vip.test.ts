import { describe, expect, it } from 'vitest'
import { categories, courses, vipPlans } from '#server/db/schema/catalogue.ts'
import { useTestApp } from '#tests/support/app.ts'

describe('vip.centre()', () => {
  const t = useTestApp()

  it('lists the active plans in order and only published VIP-free courses', async () => {
    const { db } = t().database
    const [cat] = await db.insert(categories).values({ name: '设计' }).returning()
    await db.insert(vipPlans).values([
      { name: '年卡', days: 365, priceFen: 29900, originalPriceFen: 69900, sort: 3, badge: '最划算' },
      { name: '月卡', days: 30, priceFen: 3900, sort: 1 },
      { name: '停售', days: 7, priceFen: 990, sort: 0, active: false },
    ])
    const base = { type: 'series' as const, coverUrl: '/c.webp', categoryId: cat!.id, priceFen: 9900 }
    await db.insert(courses).values([
      { ...base, title: 'VIP 课 A', vipFree: true, studentCount: 10 },
      { ...base, title: 'VIP 课 B', vipFree: true, studentCount: 50 },
      { ...base, title: '普通课', vipFree: false },
      { ...base, title: '草稿', vipFree: true, status: 'draft' },
    ])

    const centre = await t().app.services.vip.centre()

    expect(centre.plans.map((p) => p.name)).toEqual(['月卡', '年卡'])
    expect(centre.plans[1]).toMatchObject({ days: 365, price_fen: 29900, original_price_fen: 69900, badge: '最划算' })
    expect(centre.courses.map((c) => c.title)).toEqual(['VIP 课 B', 'VIP 课 A'])
    expect(centre.courses.every((c) => c.vip_free)).toBe(true)
  })
})
