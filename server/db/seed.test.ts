import { count, eq, isNotNull, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { useTestDatabase } from '#tests/support/database.ts'
import { categories, chapters, courses, hotWords, systemCourseItems, teachers, videos } from './schema/catalogue.ts'
import { homeSections } from './schema/home.ts'
import { systemOverlays } from './schema/overlays.ts'
import { vipPlans } from './schema/vip.ts'
import { members } from './schema/members.ts'
import { commenterIds, seedRemarks } from './seed-comments.ts'
import { reseed, seedIfEmpty } from './seed.ts'

const quiet = { info: () => {} }

describe('demo seed', () => {
  const database = useTestDatabase()

  it('fills an empty database with the demo catalogue the issue asks for', async () => {
    const { db } = await database()
    const now = new Date('2026-03-01T04:00:00Z')
    expect(await seedIfEmpty(db, quiet, now)).toBe(true)

    const cats = await db.select().from(categories)
    const tops = cats.filter((c) => c.parentId === null)
    expect(tops.map((c) => c.name)).toEqual(['软件', '办公', '绘画插画', '漫画', '视频剪辑', '设计'])
    for (const top of tops) {
      const n = cats.filter((c) => c.parentId === top.id).length
      expect(n).toBeGreaterThanOrEqual(3)
      expect(n).toBeLessThanOrEqual(4)
    }

    expect((await db.select({ n: count() }).from(teachers))[0]!.n).toBeGreaterThanOrEqual(6)
    const all = await db.select().from(courses)
    expect(all.length).toBeGreaterThanOrEqual(30)
    expect(new Set(all.map((c) => c.type))).toEqual(new Set(['series', 'single', 'live', 'system']))
    expect(all.some((c) => c.isFree)).toBe(true)
    expect(all.some((c) => c.vipFree)).toBe(true)
    expect(all.some((c) => c.originalPriceFen !== null)).toBe(true)
    expect(all.every((c) => Number.isInteger(c.priceFen) && c.coverUrl.startsWith('/demo/courses/'))).toBe(true)
    expect(all.filter((c) => c.isFree).every((c) => c.priceFen === 0)).toBe(true)

    const lives = all.filter((c) => c.type === 'live')
    expect(lives.some((c) => c.liveStartsAt! > now)).toBe(true)
    expect(lives.some((c) => c.liveStartsAt! < now)).toBe(true)
    // A live course's subtitle that names a weekday or an hour names those of its schedule (Beijing time): the
    // schedule moves with the day the demo is seeded, so a fixed "本周四晚 8 点" was wrong most days.
    for (const c of lives) {
      const starts = new Date(c.liveStartsAt!.getTime() + 8 * 3_600_000)
      const day = /周([一二三四五六日天])/.exec(c.subtitle)?.[1]
      if (day) expect(`${c.title}: 周${day}`).toBe(`${c.title}: 周${'日一二三四五六'[starts.getUTCDay()]}`)
      const hour = /(晚|下午)?\s*(\d{1,2})\s*点/.exec(c.subtitle)
      if (hour) {
        const said = Number(hour[2]) + (hour[1] && Number(hour[2]) < 12 ? 12 : 0)
        expect(`${c.title}: ${said} 点`).toBe(`${c.title}: ${starts.getUTCHours()} 点`)
      }
    }

    const items = await db.select().from(systemCourseItems)
    const systems = all.filter((c) => c.type === 'system')
    expect(systems.length).toBeGreaterThanOrEqual(2)
    for (const s of systems) expect(items.filter((i) => i.systemCourseId === s.id).length).toBeGreaterThanOrEqual(3)

    const v = await db.select().from(videos)
    expect((await db.select({ n: count() }).from(chapters))[0]!.n).toBeGreaterThan(50)
    expect(v.some((x) => x.freeSeconds === 120)).toBe(true)
    expect(v.some((x) => x.isFree)).toBe(true)

    const feeds = await db.select().from(homeSections)
    expect(feeds.filter((s) => s.feed === 'v3').map((s) => s.title)).toEqual(
      expect.arrayContaining(['新课上架', '热门推荐', '免费好课', 'VIP 免费学']),
    )
    expect(feeds.some((s) => s.feed === 'v2')).toBe(true)
    expect((await db.select({ n: count() }).from(hotWords))[0]!.n).toBeGreaterThanOrEqual(10)
    expect((await db.select().from(systemOverlays)).map((o) => o.type).sort()).toEqual([1, 2])
    expect((await db.select().from(vipPlans)).map((p) => [p.name, p.days])).toEqual([
      ['月卡', 30],
      ['季卡', 90],
      ['年卡', 365],
    ])
    const purchasers = await db.select().from(members).where(eq(members.isPurchaser, true))
    expect(purchasers.map((m) => m.phone)).toContain('13800138000')
  })

  it('does nothing when the catalogue already has content', async () => {
    const { db } = await database()
    const before = (await db.select({ n: count() }).from(courses))[0]!.n
    expect(await seedIfEmpty(db, quiet)).toBe(false)
    expect((await db.select({ n: count() }).from(courses))[0]!.n).toBe(before)
  })

  it('reseeds with the same ids and leaves members alone unless asked', async () => {
    const { db } = await database()
    const ids = (await db.select({ id: courses.id, title: courses.title }).from(courses)).sort((a, b) => a.id - b.id)
    await db.update(courses).set({ title: '改过的标题' }).where(eq(courses.id, ids[0]!.id))
    await db.insert(members).values({ nickname: '真实会员', phone: '13612345678' })
    await db.update(members).set({ isPurchaser: false }).where(eq(members.phone, '13800138000'))

    await reseed(db)
    const after = (await db.select({ id: courses.id, title: courses.title }).from(courses)).sort((a, b) => a.id - b.id)
    expect(after).toEqual(ids)
    expect(ids[0]!.id).toBe(1001)
    const kept = await db.select().from(members).where(isNotNull(members.phone))
    expect(kept.map((m) => m.phone)).toContain('13612345678')
    expect(kept.find((m) => m.phone === '13800138000')!.isPurchaser).toBe(false)

    await reseed(db, { members: true })
    const [m] = await db.select().from(members).where(eq(members.phone, '13800138000'))
    expect(m!.isPurchaser).toBe(true)
    // The three purchasers, the real member and the five demo commenters (found again, never added twice).
    expect((await db.execute(sql`select count(*)::int as n from members`)).rows[0]).toEqual({ n: 9 })
  })
})

describe('demo seed: learners talking', () => {
  const database = useTestDatabase()

  it('puts comments and likes on the three most learned courses, counts equal to like rows, again after a reseed', async () => {
    const { db } = await database()
    expect(await seedIfEmpty(db, quiet, new Date('2026-03-01T04:00:00Z'))).toBe(true)
    const check = async () => {
      const rows = await db.execute<{ course_id: number; like_count: number; likes: number }>(sql`
        select c.course_id, c.like_count, (select count(*)::int from comment_likes l where l.comment_id = c.id) as likes
        from comments c`)
      const top = await db
        .select({ id: courses.id })
        .from(courses)
        .orderBy(sql`student_count desc`, courses.id)
        .limit(3)
      expect(new Set(rows.rows.map((r) => Number(r.course_id)))).toEqual(new Set(top.map((c) => c.id)))
      expect(rows.rows.every((r) => Number(r.like_count) === Number(r.likes) && Number(r.likes) > 0)).toBe(true)
      return rows.rows.length
    }
    // Each remark sits on the course it talks about (they had been written for other courses and put on these).
    const onCourses = await db.execute<{ title: string; content: string }>(sql`
      select co.title, c.content from comments c join courses co on co.id = c.course_id order by c.created_at desc`)
    const said: Record<string, string[]> = {}
    for (const r of onCourses.rows) (said[r.title] ??= []).push(r.content)
    expect(said).toEqual(seedRemarks)
    expect(await check()).toBe(9)
    const people = await commenterIds(db)
    expect(people).toHaveLength(5)
    await reseed(db)
    expect(await check()).toBe(9)
    expect(await commenterIds(db)).toEqual(people)
  })
})
