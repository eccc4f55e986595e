import { eq } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { courses } from '#server/db/schema/catalogue.ts'
import { seedIfEmpty } from '#server/db/seed.ts'
import { clearAllCaches } from '#server/http/ttl-cache.ts'
import { useTestApp } from '#tests/support/app.ts'
import type { HomeFeed } from './home.schema.ts'

describe('home feeds', () => {
  const t = useTestApp()

  beforeAll(async () => {
    await seedIfEmpty(t().database.db, { info: () => {} })
  })
  beforeEach(() => clearAllCaches())

  async function feed(url: string) {
    const res = await t().app.inject({ method: 'GET', url })
    expect(res.statusCode).toBe(200)
    const body = res.json<{ code: number; data: HomeFeed }>()
    expect(body.code).toBe(200)
    return body.data
  }

  describe('GET /api/v3/index', () => {
    it('answers banners, category shortcuts and the course sections in order', async () => {
      const { sections } = await feed('/api/v3/index')
      expect(sections.map((s) => [s.kind, s.title])).toEqual([
        ['banner', ''],
        ['shortcuts', ''],
        ['grid', '新课上架'],
        ['ranking', '热门推荐'],
        ['courses', '免费好课'],
        ['grid', 'VIP 免费学'],
        ['courses', '系统班'],
      ])
      const [banner, shortcuts, newest, hot, free, vip] = sections
      expect(banner!.items).toHaveLength(3)
      expect(banner!.items[0]).toMatchObject({ image: '/demo/banners/vip.webp', link: '/vip' })
      expect(banner!.items[1]!.link).toMatch(/^\/course\/\d+\.html$/)
      expect(shortcuts!.items.map((i) => i.title)).toEqual(['软件', '办公', '绘画插画', '漫画', '视频剪辑', '设计'])
      expect(shortcuts!.items[0]!.link).toMatch(/^\/boutique\?cate=\d+$/)
      expect(newest!.courses).toHaveLength(4)
      expect(newest!.more_link).toBe('/ke?sort=new')
      expect(hot!.courses.map((c) => c.student_count)).toEqual(
        [...hot!.courses.map((c) => c.student_count)].sort((a, b) => b - a),
      )
      expect(free!.courses.every((c) => c.is_free && c.price_fen === 0)).toBe(true)
      expect(vip!.courses.every((c) => c.vip_free)).toBe(true)
      expect(vip!.courses[0]!.cover).toMatch(/^\/demo\/courses\/.+\.webp$/)
      expect(vip!.courses[0]!.teacher_name).toBeTypeOf('string')
      expect(banner!.courses).toEqual([])
    })

    it('reads the feed with two SQL statements (sections, then their course cards) and then serves it from the short cache', async () => {
      const spy = vi.spyOn(t().database.pool, 'query')
      try {
        await feed('/api/v3/index')
        expect(spy).toHaveBeenCalledTimes(2)
        await feed('/api/v3/index')
        expect(spy).toHaveBeenCalledTimes(2)
      } finally {
        spy.mockRestore()
      }
    })

    it('drops a hidden course from its section', async () => {
      const before = await feed('/api/v3/index')
      const hidden = before.sections.find((s) => s.title === '免费好课')!.courses[0]!
      await t().database.db.update(courses).set({ status: 'hidden' }).where(eq(courses.id, hidden.id))
      clearAllCaches()
      try {
        const after = await feed('/api/v3/index')
        const ids = after.sections.flatMap((s) => s.courses.map((c) => c.id))
        expect(ids).not.toContain(hidden.id)
      } finally {
        await t().database.db.update(courses).set({ status: 'published' }).where(eq(courses.id, hidden.id))
      }
    })
  })

  describe('GET /api/v2/index', () => {
    it('answers the simpler feed of /index1', async () => {
      const { sections } = await feed('/api/v2/index')
      expect(sections.map((s) => s.kind)).toEqual(['banner', 'shortcuts', 'grid', 'courses'])
      expect(sections[2]!.courses).toHaveLength(8)
    })
  })
})
