import { describe, expect, it } from 'vitest'
import { vipMemberships } from '#server/db/schema/access.ts'
import { systemCourseItems } from '#server/db/schema/catalogue.ts'
import type { Db } from '#server/db/database.ts'
import { useTestDatabase } from '#tests/support/database.ts'
import { makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'
import { insertEntitlement, revokeEntitlement } from './access.repository.ts'
import { canWatch, type WatchDecision } from './access.service.ts'

const now = new Date('2026-11-22T08:00:00Z')
const hour = 3600_000

interface World {
  db: Db
  member: number
  other: number
  freeCourseVideo: number
  freeVideo: number
  preview: number
  locked: number
  otherCourseVideo: number
  systemPartVideo: number
  vipFreeVideo: number
}

type Grant = {
  course: 'paid' | 'other' | 'system'
  member?: 'member' | 'other'
  expiresAt?: Date | null
  revokedAt?: Date
}

const full = (reason: 'free_course' | 'free_video' | 'entitled'): WatchDecision => ({
  allowed: true,
  until_second: null,
  reason,
})
const previewUntil = (s: number): WatchDecision => ({ allowed: true, until_second: s, reason: 'preview' })
const denied: WatchDecision = { allowed: false, until_second: 0, reason: 'no_access' }

/** VIP membership (issue 4): whose, and until when. */
type Vip = { expiresAt: Date; member?: 'member' | 'other' }

const cases: {
  name: string
  who: 'anonymous' | 'member'
  video: keyof Omit<World, 'db' | 'member' | 'other'>
  grants?: Grant[]
  vip?: Vip
  expected: WatchDecision
}[] = [
  { name: 'free course, anonymous', who: 'anonymous', video: 'freeCourseVideo', expected: full('free_course') },
  { name: 'free course, member', who: 'member', video: 'freeCourseVideo', expected: full('free_course') },
  {
    name: 'free video of a paid course, anonymous',
    who: 'anonymous',
    video: 'freeVideo',
    expected: full('free_video'),
  },
  { name: 'preview, anonymous', who: 'anonymous', video: 'preview', expected: previewUntil(30) },
  { name: 'preview, member without access', who: 'member', video: 'preview', expected: previewUntil(30) },
  { name: 'no preview, anonymous', who: 'anonymous', video: 'locked', expected: denied },
  { name: 'no preview, member without access', who: 'member', video: 'locked', expected: denied },
  {
    name: 'granted for ever',
    who: 'member',
    video: 'locked',
    grants: [{ course: 'paid' }],
    expected: full('entitled'),
  },
  {
    name: 'granted for ever, preview video plays in full',
    who: 'member',
    video: 'preview',
    grants: [{ course: 'paid' }],
    expected: full('entitled'),
  },
  {
    name: 'granted until later',
    who: 'member',
    video: 'locked',
    grants: [{ course: 'paid', expiresAt: new Date(now.getTime() + hour) }],
    expected: full('entitled'),
  },
  {
    name: 'expired',
    who: 'member',
    video: 'preview',
    grants: [{ course: 'paid', expiresAt: new Date(now.getTime() - 1) }],
    expected: previewUntil(30),
  },
  {
    name: 'expiring exactly now counts as expired',
    who: 'member',
    video: 'locked',
    grants: [{ course: 'paid', expiresAt: now }],
    expected: denied,
  },
  {
    name: 'revoked',
    who: 'member',
    video: 'locked',
    grants: [{ course: 'paid', revokedAt: new Date(now.getTime() - hour) }],
    expected: denied,
  },
  {
    name: 'revoked, but another grant still counts',
    who: 'member',
    video: 'locked',
    grants: [
      { course: 'paid', revokedAt: new Date(now.getTime() - hour) },
      { course: 'paid', expiresAt: null },
    ],
    expected: full('entitled'),
  },
  {
    name: 'granted another course only',
    who: 'member',
    video: 'locked',
    grants: [{ course: 'other' }],
    expected: denied,
  },
  {
    name: "another member's grant",
    who: 'member',
    video: 'locked',
    grants: [{ course: 'paid', member: 'other' }],
    expected: denied,
  },
  {
    name: 'anonymous ignores every grant',
    who: 'anonymous',
    video: 'locked',
    grants: [{ course: 'paid' }],
    expected: denied,
  },
  {
    name: 'granted a system course that contains the course',
    who: 'member',
    video: 'systemPartVideo',
    grants: [{ course: 'system' }],
    expected: full('entitled'),
  },
  {
    name: 'VIP running, VIP-free course',
    who: 'member',
    video: 'vipFreeVideo',
    vip: { expiresAt: new Date(now.getTime() + hour) },
    expected: full('entitled'),
  },
  {
    name: 'VIP running, course not VIP-free',
    who: 'member',
    video: 'locked',
    vip: { expiresAt: new Date(now.getTime() + hour) },
    expected: denied,
  },
  {
    name: 'VIP expired, VIP-free course',
    who: 'member',
    video: 'vipFreeVideo',
    vip: { expiresAt: new Date(now.getTime() - 1) },
    expected: previewUntil(60),
  },
  {
    name: 'VIP expiring exactly now',
    who: 'member',
    video: 'vipFreeVideo',
    vip: { expiresAt: now },
    expected: previewUntil(60),
  },
  { name: 'no VIP, VIP-free course', who: 'member', video: 'vipFreeVideo', expected: previewUntil(60) },
  {
    name: "another member's VIP",
    who: 'member',
    video: 'vipFreeVideo',
    vip: { expiresAt: new Date(now.getTime() + hour), member: 'other' },
    expected: previewUntil(60),
  },
  { name: 'anonymous, VIP-free course', who: 'anonymous', video: 'vipFreeVideo', expected: previewUntil(60) },
]

describe('canWatch', () => {
  const database = useTestDatabase()

  async function world(grants: Grant[] = [], vip?: Vip): Promise<World> {
    const db = (await database()).db
    const member = (await makeMember(db)).id
    const other = (await makeMember(db)).id
    const freeCourse = await makeCourse(db, { isFree: true, priceFen: 0 })
    const paid = await makeCourse(db, { priceFen: 19900 })
    const otherCourse = await makeCourse(db)
    const partCourse = await makeCourse(db)
    const system = await makeCourse(db, { type: 'system' })
    await db.insert(systemCourseItems).values({ systemCourseId: system, courseId: partCourse })
    const ids = { paid, other: otherCourse, system }
    const vipFreeCourse = await makeCourse(db, { vipFree: true })
    if (vip)
      await db
        .insert(vipMemberships)
        .values({ memberId: vip.member === 'other' ? other : member, expiresAt: vip.expiresAt, updatedAt: now })
    for (const g of grants) {
      const row = await insertEntitlement(db, {
        memberId: g.member === 'other' ? other : member,
        courseId: ids[g.course],
        source: 'admin',
        grantedAt: new Date(now.getTime() - 2 * hour),
        expiresAt: g.expiresAt ?? null,
      })
      if (g.revokedAt) await revokeEntitlement(db, row.id, g.revokedAt)
    }
    return {
      db,
      member,
      other,
      freeCourseVideo: await makeVideo(db, freeCourse),
      freeVideo: await makeVideo(db, paid, { isFree: true }),
      preview: await makeVideo(db, paid, { freeSeconds: 30 }),
      locked: await makeVideo(db, paid),
      otherCourseVideo: await makeVideo(db, otherCourse),
      systemPartVideo: await makeVideo(db, partCourse),
      vipFreeVideo: await makeVideo(db, vipFreeCourse, { freeSeconds: 60 }),
    }
  }

  it.each(cases)('$name', async ({ who, video, grants, vip, expected }) => {
    const w = await world(grants, vip)
    expect(await canWatch(w.db, who === 'member' ? w.member : null, w[video], now)).toEqual(expected)
  })

  it('answers not_found for a video that does not exist', async () => {
    const w = await world()
    expect(await canWatch(w.db, w.member, 999_999, now)).toEqual({
      allowed: false,
      until_second: 0,
      reason: 'not_found',
    })
  })

  it('follows the clock: a grant stops counting when it expires', async () => {
    const w = await world([{ course: 'paid', expiresAt: new Date(now.getTime() + hour) }])
    expect((await canWatch(w.db, w.member, w.locked, new Date(now.getTime() + hour - 1))).reason).toBe('entitled')
    expect((await canWatch(w.db, w.member, w.locked, new Date(now.getTime() + hour))).reason).toBe('no_access')
  })
})
