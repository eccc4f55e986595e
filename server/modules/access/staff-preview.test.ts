import { beforeAll, describe, expect, it } from 'vitest'
import { memberRoles } from '#server/db/schema/members.ts'
import { createCatalogueFacts } from '#server/modules/catalogue/catalogue.service.ts'
import { useTestDatabase } from '#tests/support/database.ts'
import { grantRoles, makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'
import { eq } from 'drizzle-orm'
import { accessNow, canWatch, createAccessService, ownedCourseIds } from './access.service.ts'

const now = new Date('2026-11-26T08:00:00Z')

/**
 * The staff preview (issue 13, the media screen): staff whose roles hold `media.preview` may play any lesson in
 * full, decided by the one access function like every other way in; learners and other staff are not.
 */
describe('the access function: staff preview', () => {
  const database = useTestDatabase()
  let course: number
  let locked: number
  let preview: number
  const members: Record<'learner' | 'operator' | 'admin' | 'finance' | 'teacher', number> = {
    learner: 0,
    operator: 0,
    admin: 0,
    finance: 0,
    teacher: 0,
  }

  beforeAll(async () => {
    const { db } = await database()
    course = await makeCourse(db, { priceFen: 9900, status: 'published' })
    locked = await makeVideo(db, course, { title: '付费课' })
    preview = await makeVideo(db, course, { title: '试看课', freeSeconds: 30 })
    members.learner = (await makeMember(db, 'member')).id
    members.operator = (await makeMember(db, ['operator'])).id
    members.admin = (await makeMember(db, 'admin')).id
    members.finance = (await makeMember(db, ['finance'])).id
    members.teacher = (await makeMember(db, ['teacher'])).id
  })

  it('opens every lesson in full to operators and admins, with the reason staff_preview', async () => {
    const { db } = await database()
    for (const who of ['operator', 'admin'] as const) {
      for (const videoId of [locked, preview]) {
        expect(await accessNow(db, members[who], { videoId }, now), `${who} ${videoId}`).toEqual({
          allowed: true,
          why: ['staff_preview'],
          until: null,
          expiresAt: null,
          found: true,
        })
        expect(await canWatch(db, members[who], videoId, now)).toEqual({
          allowed: true,
          until_second: null,
          reason: 'entitled',
        })
      }
    }
  })

  it('still refuses a learner and staff without media.preview (finance, teacher), and anonymous visitors', async () => {
    const { db } = await database()
    for (const who of ['learner', 'finance', 'teacher'] as const) {
      expect(await canWatch(db, members[who], locked, now), who).toEqual({
        allowed: false,
        until_second: 0,
        reason: 'no_access',
      })
      expect(await canWatch(db, members[who], preview, now), who).toMatchObject({ until_second: 30, reason: 'preview' })
    }
    expect(await canWatch(db, null, locked, now)).toMatchObject({ allowed: false })
  })

  it('gives staff no course: course answers and ownership stay those of a learner', async () => {
    const { db } = await database()
    expect(await accessNow(db, members.operator, { courseId: course }, now)).toMatchObject({ allowed: false })
    expect(await ownedCourseIds(db, members.operator, [course], now)).toEqual(new Set())
  })

  it('counts a role taken away at the next question, through the cached facts as well', async () => {
    const { db } = await database()
    const access = createAccessService({ db, now: () => now, facts: createCatalogueFacts({ db }) })
    const assistant = (await makeMember(db, 'member')).id
    await grantRoles(db, assistant, ['operator'])
    expect((await access.canWatch(assistant, locked)).allowed).toBe(true)
    expect((await access.accessToLessons(assistant, [locked, preview])).get(preview)).toMatchObject({
      why: ['staff_preview'],
    })
    await db.delete(memberRoles).where(eq(memberRoles.memberId, assistant))
    expect(await access.canWatch(assistant, locked)).toMatchObject({ allowed: false, reason: 'no_access' })
  })
})
