import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { EntitlementSource } from '#server/db/schema/access.ts'
import { vipMemberships } from '#server/db/schema/access.ts'
import { systemCourseItems } from '#server/db/schema/catalogue.ts'
import type { Database } from '#server/db/database.ts'
import { createCatalogueFacts } from '#server/modules/catalogue/catalogue.service.ts'
import { useTestDatabase } from '#tests/support/database.ts'
import { makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'
import { insertEntitlement, revokeEntitlement } from './access.repository.ts'
import {
  accessNow,
  canWatch,
  createAccessService,
  ownedCourseIds,
  toWatchDecision,
  type AccessAnswer,
  type AccessTarget,
  type AccessWhy,
} from './access.service.ts'

const now = new Date('2026-11-22T08:00:00Z')
const hour = 3600_000
const later = (h: number) => new Date(now.getTime() + h * hour)

type CourseName = 'free' | 'paid' | 'vipFree' | 'part' | 'system' | 'other'
type LessonName = 'freeCourseLesson' | 'freeLesson' | 'preview' | 'locked' | 'vipLesson' | 'partLesson'

interface Grant {
  course: CourseName
  source?: EntitlementSource
  expiresAt?: Date | null
  revoked?: boolean
  /** Another member's grant. */
  other?: boolean
}

const full = (why: AccessWhy[], expiresAt: Date | null = null): AccessAnswer => ({
  allowed: true,
  why,
  until: null,
  expiresAt,
  found: true,
})
const preview = (s: number): AccessAnswer => ({
  allowed: true,
  why: ['preview'],
  until: s,
  expiresAt: null,
  found: true,
})
const refused: AccessAnswer = { allowed: false, why: [], until: 0, expiresAt: null, found: true }
const unknown: AccessAnswer = { allowed: false, why: [], until: 0, expiresAt: null, found: false }

const cases: {
  name: string
  anonymous?: boolean
  target: { lesson: LessonName | 'unknown' } | { course: CourseName | 'unknown' }
  grants?: Grant[]
  /** The member's VIP end (a past one: expired). */
  vip?: Date
  expected: AccessAnswer
}[] = [
  { name: 'anonymous, locked lesson', anonymous: true, target: { lesson: 'locked' }, expected: refused },
  {
    name: 'anonymous, free course',
    anonymous: true,
    target: { lesson: 'freeCourseLesson' },
    expected: full(['free_course']),
  },
  {
    name: 'anonymous, free lesson',
    anonymous: true,
    target: { lesson: 'freeLesson' },
    expected: full(['free_lesson']),
  },
  { name: 'anonymous, preview seconds', anonymous: true, target: { lesson: 'preview' }, expected: preview(30) },
  {
    name: 'anonymous ignores grants',
    anonymous: true,
    target: { lesson: 'locked' },
    grants: [{ course: 'paid' }],
    expected: refused,
  },
  { name: 'member without rights, preview', target: { lesson: 'preview' }, expected: preview(30) },
  {
    name: 'admin grant for ever',
    target: { lesson: 'locked' },
    grants: [{ course: 'paid' }],
    expected: full(['admin']),
  },
  {
    name: 'purchase until later',
    target: { lesson: 'locked' },
    grants: [{ course: 'paid', source: 'purchase', expiresAt: later(5) }],
    expected: full(['purchase'], later(5)),
  },
  ...(['vip', 'redeem', 'exchange', 'unlock'] as const).map((source) => ({
    name: `${source} entitlement`,
    target: { lesson: 'locked' as const },
    grants: [{ course: 'paid' as const, source }],
    expected: full([source]),
  })),
  {
    name: 'every source is listed; one without end makes it last for ever',
    target: { lesson: 'locked' },
    grants: [
      { course: 'paid', source: 'purchase' },
      { course: 'paid', source: 'admin', expiresAt: later(1) },
    ],
    expected: full(['admin', 'purchase']),
  },
  {
    name: 'it lasts until the latest end among its sources',
    target: { lesson: 'locked' },
    grants: [
      { course: 'paid', expiresAt: later(1) },
      { course: 'paid', source: 'redeem', expiresAt: later(9) },
    ],
    expected: full(['admin', 'redeem'], later(9)),
  },
  {
    name: 'a granted preview lesson plays in full',
    target: { lesson: 'preview' },
    grants: [{ course: 'paid' }],
    expected: full(['admin']),
  },
  {
    name: 'a free course also lists the grant',
    target: { lesson: 'freeCourseLesson' },
    grants: [{ course: 'free', source: 'purchase' }],
    expected: full(['free_course', 'purchase']),
  },
  {
    name: 'a free lesson also lists the grant, for ever',
    target: { lesson: 'freeLesson' },
    grants: [{ course: 'paid', expiresAt: later(1) }],
    expected: full(['free_lesson', 'admin']),
  },
  {
    name: 'revoked',
    target: { lesson: 'preview' },
    grants: [{ course: 'paid', revoked: true }],
    expected: preview(30),
  },
  {
    name: 'expired',
    target: { lesson: 'locked' },
    grants: [{ course: 'paid', expiresAt: later(-1) }],
    expected: refused,
  },
  {
    name: 'expiring exactly now counts as expired',
    target: { lesson: 'locked' },
    grants: [{ course: 'paid', expiresAt: now }],
    expected: refused,
  },
  { name: 'another course granted', target: { lesson: 'locked' }, grants: [{ course: 'other' }], expected: refused },
  {
    name: "another member's grant",
    target: { lesson: 'locked' },
    grants: [{ course: 'paid', other: true }],
    expected: refused,
  },
  {
    name: 'a system course containing the course',
    target: { lesson: 'partLesson' },
    grants: [{ course: 'system', source: 'purchase', expiresAt: later(3) }],
    expected: full(['purchase'], later(3)),
  },
  {
    name: 'VIP running, VIP-free course',
    target: { lesson: 'vipLesson' },
    vip: later(2),
    expected: full(['vip_membership'], later(2)),
  },
  { name: 'VIP expired, VIP-free course', target: { lesson: 'vipLesson' }, vip: later(-1), expected: preview(60) },
  { name: 'VIP running, course not VIP-free', target: { lesson: 'locked' }, vip: later(2), expected: refused },
  {
    name: 'VIP and a grant on a VIP-free course',
    target: { lesson: 'vipLesson' },
    grants: [{ course: 'vipFree', source: 'purchase' }],
    vip: later(2),
    expected: full(['purchase', 'vip_membership']),
  },
  { name: 'unknown lesson', target: { lesson: 'unknown' }, expected: unknown },
  // Whole courses: no preview, all or nothing.
  { name: 'course: free', anonymous: true, target: { course: 'free' }, expected: full(['free_course']) },
  { name: 'course: paid without rights', target: { course: 'paid' }, expected: refused },
  {
    name: 'course: granted',
    target: { course: 'paid' },
    grants: [{ course: 'paid', expiresAt: later(4) }],
    expected: full(['admin'], later(4)),
  },
  {
    name: 'course: through a system course',
    target: { course: 'part' },
    grants: [{ course: 'system', source: 'purchase' }],
    expected: full(['purchase']),
  },
  {
    name: 'course: VIP-free with VIP',
    target: { course: 'vipFree' },
    vip: later(2),
    expected: full(['vip_membership'], later(2)),
  },
  { name: 'course: VIP-free without VIP', target: { course: 'vipFree' }, expected: refused },
  { name: 'course: unknown', target: { course: 'unknown' }, expected: unknown },
]

describe('the access function', () => {
  const database = useTestDatabase()
  let d: Database
  let courses: Record<CourseName, number>
  let lessons: Record<LessonName, number>
  let stranger: number

  beforeAll(async () => {
    d = await database()
    const db = d.db
    courses = {
      free: await makeCourse(db, { isFree: true, priceFen: 0 }),
      paid: await makeCourse(db, { priceFen: 19900 }),
      vipFree: await makeCourse(db, { vipFree: true }),
      part: await makeCourse(db),
      system: await makeCourse(db, { type: 'system' }),
      other: await makeCourse(db),
    }
    await db.insert(systemCourseItems).values({ systemCourseId: courses.system, courseId: courses.part })
    lessons = {
      freeCourseLesson: await makeVideo(db, courses.free),
      freeLesson: await makeVideo(db, courses.paid, { isFree: true }),
      preview: await makeVideo(db, courses.paid, { freeSeconds: 30 }),
      locked: await makeVideo(db, courses.paid),
      vipLesson: await makeVideo(db, courses.vipFree, { freeSeconds: 60 }),
      partLesson: await makeVideo(db, courses.part),
    }
    stranger = (await makeMember(db)).id
  })

  /** A new member with these grants and VIP; returns their id. */
  async function memberWith(grants: Grant[] = [], vip?: Date) {
    const member = (await makeMember(d.db)).id
    for (const g of grants) {
      const row = await insertEntitlement(d.db, {
        memberId: g.other ? stranger : member,
        courseId: courses[g.course],
        source: g.source ?? 'admin',
        grantedAt: later(-2),
        expiresAt: g.expiresAt ?? null,
      })
      if (g.revoked) await revokeEntitlement(d.db, row.id, later(-1))
    }
    if (vip) await d.db.insert(vipMemberships).values({ memberId: member, expiresAt: vip, updatedAt: later(-3) })
    return member
  }

  const targetOf = (t: (typeof cases)[number]['target']): AccessTarget =>
    'lesson' in t
      ? { videoId: t.lesson === 'unknown' ? 1_999_999 : lessons[t.lesson] }
      : { courseId: t.course === 'unknown' ? 1_999_999 : courses[t.course] }

  it.each(cases)('$name', async ({ anonymous, target, grants, vip, expected }) => {
    const member = anonymous ? null : await memberWith(grants, vip)
    const service = createAccessService({ db: d.db, now: () => now, facts: createCatalogueFacts({ db: d.db }) })
    const t = targetOf(target)
    expect(await service.access(member, t)).toEqual(expected)
    // The uncached form and the batch forms give the same answer.
    expect(await accessNow(d.db, member, t, now)).toEqual(expected)
    if ('videoId' in t) {
      expect((await service.accessToLessons(member, [t.videoId])).get(t.videoId)).toEqual(expected)
      // canWatch is the narrow view of the same answer.
      expect(await canWatch(d.db, member, t.videoId, now)).toEqual(toWatchDecision(expected))
      expect(await service.canWatch(member, t.videoId)).toEqual(toWatchDecision(expected))
    } else expect((await service.accessToCourses(member, [t.courseId])).get(t.courseId)).toEqual(expected)
  })

  it('answers many courses with one look at the catalogue and one at the rights', async () => {
    const member = await memberWith([{ course: 'system', source: 'purchase' }, { course: 'paid' }], later(1))
    const service = createAccessService({ db: d.db, now: () => now, facts: createCatalogueFacts({ db: d.db }) })
    const ids = [courses.free, courses.paid, courses.vipFree, courses.part, courses.other, 1_999_999]
    const spy = vi.spyOn(d.pool, 'query')
    const answers = await service.accessToCourses(member, ids)
    expect(spy.mock.calls.length).toBe(2)
    // Asked again, the catalogue's facts come from the cache: only the rights are read (unknown ids are not
    // remembered, so they would be looked up again).
    spy.mockClear()
    await service.accessToCourses(member, ids.slice(0, -1))
    expect(spy.mock.calls.length).toBe(1)
    spy.mockRestore()
    expect(ids.map((id) => answers.get(id)!.why)).toEqual([
      ['free_course'],
      ['admin'],
      ['vip_membership'],
      ['purchase'],
      [],
      [],
    ])
  })

  it('counts a grant at once while the catalogue facts are cached', async () => {
    const member = await memberWith()
    const service = createAccessService({ db: d.db, now: () => now, facts: createCatalogueFacts({ db: d.db }) })
    expect((await service.access(member, { videoId: lessons.locked })).allowed).toBe(false)
    await insertEntitlement(d.db, {
      memberId: member,
      courseId: courses.paid,
      source: 'admin',
      grantedAt: now,
      expiresAt: null,
    })
    expect((await service.access(member, { videoId: lessons.locked })).why).toEqual(['admin'])
  })

  it('follows the clock given in the options', async () => {
    const member = await memberWith([{ course: 'paid', expiresAt: later(1) }])
    const service = createAccessService({ db: d.db, now: () => now, facts: createCatalogueFacts({ db: d.db }) })
    expect((await service.access(member, { courseId: courses.paid }, { now: later(0.5) })).allowed).toBe(true)
    expect((await service.access(member, { courseId: courses.paid }, { now: later(1) })).allowed).toBe(false)
  })
})

describe('ownedCourseIds', () => {
  const database = useTestDatabase()

  it('owns in the purchase sense: own or system-course entitlements that count now, never VIP', async () => {
    const { db } = await database()
    const member = (await makeMember(db)).id
    const other = (await makeMember(db)).id
    const c = {
      granted: await makeCourse(db),
      part: await makeCourse(db),
      system: await makeCourse(db, { type: 'system' }),
      vipFree: await makeCourse(db, { vipFree: true }),
      revoked: await makeCourse(db),
      expired: await makeCourse(db),
      othersGrant: await makeCourse(db),
      later: await makeCourse(db),
    }
    await db.insert(systemCourseItems).values({ systemCourseId: c.system, courseId: c.part })
    const grant = (memberId: number, courseId: number, expiresAt: Date | null = null) =>
      insertEntitlement(db, { memberId, courseId, source: 'purchase', grantedAt: later(-2), expiresAt })
    await grant(member, c.granted)
    await grant(member, c.system)
    await grant(member, c.later, later(1))
    await grant(member, c.expired, now)
    await revokeEntitlement(db, (await grant(member, c.revoked)).id, later(-1))
    await grant(other, c.othersGrant)
    await db.insert(vipMemberships).values({ memberId: member, expiresAt: later(5), updatedAt: now })

    const all = Object.values(c)
    expect(await ownedCourseIds(db, member, [...all, 1_999_999], now)).toEqual(
      new Set([c.granted, c.part, c.system, c.later]),
    )
    expect(await ownedCourseIds(db, member, all, later(1))).toEqual(new Set([c.granted, c.part, c.system]))
    expect(await ownedCourseIds(db, other, all, now)).toEqual(new Set([c.othersGrant]))
    expect(await ownedCourseIds(db, member, [], now)).toEqual(new Set())
  })
})
