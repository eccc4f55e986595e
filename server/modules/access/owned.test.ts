import { describe, expect, it } from 'vitest'
import { entitlements } from '#server/db/schema/access.ts'
import { systemCourseItems } from '#server/db/schema/catalogue.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'
import { useTestDatabase } from '#tests/support/database.ts'
import { ownedCourseIds } from './access.service.ts'

describe('ownedCourseIds (access door)', () => {
  const database = useTestDatabase()
  const now = new Date('2026-05-01T00:00:00Z')

  it('owns a course through an entitlement to it or to a system course containing it, while it counts', async () => {
    const { db } = await database()
    const member = await makeMember(db, 'member', now)
    const [direct, inSystem, revoked, expired, expiring, other] = await Promise.all(
      Array.from({ length: 6 }, () => makeCourse(db)),
    )
    const system = await makeCourse(db, { type: 'system' })
    await db.insert(systemCourseItems).values({ systemCourseId: system, courseId: inSystem! })
    const grant = (courseId: number, extra: Partial<typeof entitlements.$inferInsert> = {}) => ({
      memberId: member.id,
      courseId,
      source: 'admin' as const,
      grantedAt: now,
      ...extra,
    })
    await db
      .insert(entitlements)
      .values([
        grant(direct!),
        grant(system),
        grant(revoked!, { revokedAt: now }),
        grant(expired!, { expiresAt: new Date(now.getTime() - 1000) }),
        grant(expiring!, { expiresAt: new Date(now.getTime() + 1000) }),
      ])
    const ids = [direct!, inSystem!, revoked!, expired!, expiring!, other!, system]
    expect(await ownedCourseIds(db, member.id, ids, now)).toEqual(new Set([direct, inSystem, expiring, system]))
    expect(await ownedCourseIds(db, member.id, [], now)).toEqual(new Set())
  })

  it('owns nothing without entitlements', async () => {
    const { db } = await database()
    const member = await makeMember(db, 'member', now)
    const course = await makeCourse(db)
    expect(await ownedCourseIds(db, member.id, [course], now)).toEqual(new Set())
  })
})
