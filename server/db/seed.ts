import { sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { clearAllCaches } from '#server/http/public-cache.ts'
import { creditPoints } from '#server/modules/points/points.repository.ts'
import { seedPlayerPopups } from '#server/modules/learning/popups.seed.ts'
import { refreshSearchDocuments } from '#server/modules/catalogue/catalogue.service.ts'
import type { Db, DbOrTx } from './database.ts'
import { categories, chapters, courses, hotWords, systemCourseItems, teachers, videos } from './schema/catalogue.ts'
import { systemOverlays } from './schema/overlays.ts'
import { vipPlans } from './schema/vip.ts'
import { bundleCourses, bundles } from './schema/bundles.ts'
import { pointBalances } from './schema/points.ts'
import { members } from './schema/members.ts'
import {
  demoImage,
  seedCategories,
  seedCourses,
  seedHotWords,
  seedPurchasers,
  seedTeachers,
  seedVipPlans,
  seedBundles,
  DEMO_WELCOME_POINTS,
  type SeedCourse,
} from './seed-data.ts'
import { seedComments } from './seed-comments.ts'
import { seedExchangeSkus } from './seed-exchange.ts'
import { seedHome, stableHash as hash } from './seed-home.ts'

/** Serialises seeding between processes that boot at the same time on one database. */
const SEED_LOCK = 727275

/** The tables the demo catalogue fills; `reseed` empties exactly these. */
const catalogueTables = [
  'popup_clicks',
  'player_popups',
  'overlay_clicks',
  'system_overlays',
  'home_section_items',
  'home_sections',
  'hot_words',
  'vip_plans',
  'bundle_courses',
  'bundles',
  'system_course_items',
  'videos',
  'chapters',
  'courses',
  'teachers',
  'categories',
]

const DAY = 24 * 3600 * 1000

/** 20:00 Beijing time (12:00 UTC), `days` days from `now`. */
function eveningIn(now: Date, days: number) {
  const d = new Date(now.getTime() + days * DAY)
  d.setUTCHours(12, 0, 0, 0)
  return d
}

function courseCreatedAt(course: SeedCourse, now: Date) {
  // Spread over the last ~4 months, minutes apart so no two courses share a timestamp.
  return new Date(now.getTime() - (hash(course.slug) % 120) * DAY - (hash(`${course.slug}:m`) % 1440) * 60_000)
}

function videoDuration(course: SeedCourse, title: string) {
  const h = hash(`${course.slug}/${title}`)
  if (course.type === 'live') return 3600 + (h % 1800)
  if (course.type === 'single') return 600 + (h % 1200)
  if (course.type === 'system') return 300 + (h % 300)
  return 360 + (h % 1140)
}

/**
 * The followers a demo teacher brings from before the site (the triggers on `follows` count the site's own on top):
 * about one learner in eight of their courses, so the teacher page agrees with the courses' "N人学过".
 */
function followersBefore(teacherSlug: string) {
  const learners = seedCourses.filter((c) => c.teacher === teacherSlug).reduce((sum, c) => sum + c.students, 0)
  return Math.round(learners / 8)
}

function intro(course: SeedCourse) {
  return `${course.about}\n\n适合人群：${course.audience}\n\n你将学会：${course.outcomes}`
}

/** Writes the whole demo catalogue. Expects the catalogue tables to be empty. */
async function seedCatalogue(db: DbOrTx, now: Date) {
  // Categories: the six subject areas, then their sub-categories.
  const areaRows = await db
    .insert(categories)
    .values(seedCategories.map((c, i) => ({ name: c.name, icon: demoImage.category(c.slug), sort: i })))
    .returning({ id: categories.id, name: categories.name })
  const areaId = new Map(seedCategories.map((c) => [c.slug, areaRows.find((r) => r.name === c.name)!.id]))
  const subRows = await db
    .insert(categories)
    .values(
      seedCategories.flatMap((c) =>
        c.children.map((s, i) => ({ parentId: areaId.get(c.slug)!, name: s.name, sort: i })),
      ),
    )
    .returning({ id: categories.id, name: categories.name, parentId: categories.parentId })
  const subId = new Map<string, number>()
  for (const c of seedCategories) {
    for (const s of c.children)
      subId.set(s.slug, subRows.find((r) => r.name === s.name && r.parentId === areaId.get(c.slug))!.id)
  }

  const teacherRows = await db
    .insert(teachers)
    .values(
      seedTeachers.map((t, i) => ({
        name: t.name,
        title: t.title,
        intro: t.intro,
        avatarUrl: demoImage.teacher(t.slug),
        sort: i,
        followerCount: followersBefore(t.slug),
      })),
    )
    .returning({ id: teachers.id, name: teachers.name })
  const teacherId = new Map(seedTeachers.map((t) => [t.slug, teacherRows.find((r) => r.name === t.name)!.id]))

  const featured = new Set(['ps-zero', 'excel-functions', 'procreate-zero', 'jianying-zero', 'ui-figma'])
  const courseRows = await db
    .insert(courses)
    .values(
      seedCourses.map((c) => {
        const createdAt = courseCreatedAt(c, now)
        const liveStartsAt = c.liveInDays === undefined ? null : eveningIn(now, c.liveInDays)
        return {
          type: c.type,
          title: c.title,
          subtitle: c.subtitle,
          coverUrl: demoImage.course(c.slug),
          intro: intro(c),
          categoryId: subId.get(c.category)!,
          teacherId: teacherId.get(c.teacher)!,
          priceFen: Math.round(c.price * 100),
          originalPriceFen: c.originalPrice ? Math.round(c.originalPrice * 100) : null,
          isFree: c.isFree ?? false,
          pointsPrice: c.pointsPrice ?? null,
          vipFree: c.vipFree ?? false,
          level: c.level,
          tags: c.tags,
          studentCount: c.students,
          liveStartsAt,
          liveEndsAt: liveStartsAt && new Date(liveStartsAt.getTime() + 90 * 60_000),
          sort: c.type === 'system' ? 30 : featured.has(c.slug) ? 20 : 0,
          createdAt,
          updatedAt: createdAt,
        }
      }),
    )
    .returning({ id: courses.id, title: courses.title })
  const courseId = new Map(seedCourses.map((c) => [c.slug, courseRows.find((r) => r.title === c.title)!.id]))
  const idOf = (slug: string) => {
    const id = courseId.get(slug)
    if (id === undefined) throw new Error(`seed: unknown course ${slug}`)
    return id
  }

  await db
    .insert(systemCourseItems)
    .values(
      seedCourses.flatMap((c) =>
        (c.items ?? []).map((item, i) => ({ systemCourseId: idOf(c.slug), courseId: idOf(item), sort: i })),
      ),
    )

  // Chapters, then their videos. The first lesson of a paid course is free to watch and the second has a
  // two-minute preview, so every paid course can be tried.
  const chapterRows = await db
    .insert(chapters)
    .values(seedCourses.flatMap((c) => c.chapters.map(([title], i) => ({ courseId: idOf(c.slug), title, sort: i }))))
    .returning({ id: chapters.id, courseId: chapters.courseId, sort: chapters.sort })
  const chapterId = new Map(chapterRows.map((r) => [`${r.courseId}:${r.sort}`, r.id]))
  const videoValues = seedCourses.flatMap((c) => {
    let n = 0
    return c.chapters.flatMap(([, lessons], ci) =>
      lessons.map((title) => {
        const position = n++
        const free = c.isFree === true || position === 0 || c.type === 'system'
        return {
          courseId: idOf(c.slug),
          chapterId: chapterId.get(`${idOf(c.slug)}:${ci}`)!,
          title,
          durationSeconds: videoDuration(c, title),
          isFree: free,
          freeSeconds: !free && position === 1 ? 120 : 0,
          sort: position,
        }
      }),
    )
  })
  await db.insert(videos).values(videoValues)
  await seedPlayerPopups(db, idOf)

  await seedHome(db, { areaId, idOf })

  await db.insert(hotWords).values(seedHotWords.map((word, i) => ({ word, sort: i })))

  await db.insert(systemOverlays).values([
    {
      type: 1,
      name: '新课上线',
      content:
        '<p>《<strong>达芬奇调色：电影感画面</strong>》正式上线！</p><p>从一级校色到风格化调色，周野老师带你做出有电影感的画面。<em>VIP 会员可享 8 折</em>。</p>',
      buttonText: '去看看',
      jumpType: 1,
      jumpParams: { course_type: 'series', course_id: idOf('davinci-color') },
      sort: 0,
    },
    {
      type: 2,
      name: '绘画插画季',
      imageUrl: demoImage.overlay('painting-season'),
      buttonText: '去看看',
      jumpType: 2,
      jumpParams: { selected: areaId.get('painting')! },
      sort: 1,
    },
  ])

  await db.insert(vipPlans).values(seedVipPlans.map((p, i) => ({ ...p, sort: i })))

  for (const [i, b] of seedBundles.entries()) {
    const [bundle] = await db
      .insert(bundles)
      .values({
        title: b.title,
        subtitle: b.subtitle,
        intro: b.intro,
        priceFen: b.price * 100,
        sort: i,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: bundles.id })
    await db
      .insert(bundleCourses)
      .values(b.courses.map((slug, position) => ({ bundleId: bundle!.id, courseId: idOf(slug), position })))
  }
}

/** Adds the demo purchasers (phones of spec 6's `/ke2` mode); existing members with those phones become purchasers. */
async function seedMembers(db: DbOrTx, now = new Date()) {
  const rows = await db
    .insert(members)
    .values(seedPurchasers.map((p) => ({ ...p, isPurchaser: true })))
    .onConflictDoUpdate({
      target: members.phone,
      targetWhere: sql`${members.phone} is not null`,
      set: { isPurchaser: true },
    })
    .returning({ id: members.id })
  // Welcome points through the ledger, once: a member who has a balance row already keeps what they have.
  for (const { id } of rows) {
    const [fresh] = await db
      .insert(pointBalances)
      .values({ memberId: id, balance: 0, updatedAt: now })
      .onConflictDoNothing()
      .returning({ memberId: pointBalances.memberId })
    if (fresh)
      await creditPoints(db, {
        memberId: id,
        points: DEMO_WELCOME_POINTS,
        reason: 'admin_adjust',
        actor: 'system',
        note: '演示账户赠送积分',
        at: now,
      })
  }
}

/** Seeds the demo content when the catalogue is empty (first start); does nothing otherwise. */
export async function seedIfEmpty(db: Db, log: Pick<FastifyBaseLogger, 'info'>, now = new Date()) {
  const seeded = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`)
    const existing = await tx.select({ id: categories.id }).from(categories).limit(1)
    if (existing.length > 0) return false
    await seedCatalogue(tx, now)
    await seedMembers(tx, now)
    await seedComments(tx, now)
    await seedExchangeSkus(tx, now)
    return true
  })
  if (seeded) {
    await refreshSearchDocuments(db)
    clearAllCaches()
    log.info(`seed: demo content written (${seedCourses.length} courses, ${seedTeachers.length} teachers)`)
  }
  return seeded
}

/**
 * Empties the catalogue tables and writes the demo catalogue again, with the same ids as a first start. Rows of
 * other domains that point at courses (orders, favourites, study records) go with them. Members are left alone
 * unless `members` is set, which (re)adds the demo purchasers.
 */
export async function reseed(db: Db, options: { members?: boolean; now?: Date } = {}) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`)
    await tx.execute(sql.raw(`truncate ${catalogueTables.join(', ')} restart identity cascade`))
    await seedCatalogue(tx, options.now ?? new Date())
    if (options.members) await seedMembers(tx, options.now)
    await seedComments(tx, options.now ?? new Date())
    await seedExchangeSkus(tx, options.now ?? new Date())
  })
  await refreshSearchDocuments(db)
  clearAllCaches()
}
