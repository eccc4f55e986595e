import { and, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { entitlements } from '#server/db/schema/access.ts'
import { redeemCodes, redeemUses } from '#server/db/schema/redeem.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'
import { stepUpHeaders } from '#tests/support/staff.ts'

type Res = { code: number; msg: string }

describe('redeem codes under concurrency (real PostgreSQL)', () => {
  // A pool large enough that the twenty requests really run at the same moment in the database.
  const t = useTestApp({ DATABASE_POOL_SIZE: '25' })
  let courseId: number

  beforeAll(async () => {
    courseId = await makeCourse(t().database.db, { title: '并发课程' })
  })

  async function newCodes(count: number, perMemberLimit = 1) {
    const operator = await makeMember(t().database.db, 'staff')
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/admin/redeem/batches',
      headers: { ...operator.headers, ...stepUpHeaders(operator.token) },
      payload: {
        name: '并发批次',
        course_ids: [courseId],
        count,
        per_member_limit: perMemberLimit,
        valid_from: new Date(Date.now() - 60_000).toISOString(),
        valid_until: new Date(Date.now() + 3_600_000).toISOString(),
      },
    })
    return res.body
      .trim()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(',')[1]!)
  }

  const exchange = (headers: Record<string, string>, code: string, i: number) =>
    t().app.inject({
      method: 'POST',
      url: '/api/redeem_code/exchange',
      headers,
      remoteAddress: `10.20.0.${i + 1}`,
      payload: { data: code },
    })

  it('20 members exchanging one single-use code at the same moment: exactly one succeeds', async () => {
    const [code] = await newCodes(1)
    const members = await Promise.all(Array.from({ length: 20 }, () => makeMember(t().database.db)))
    const answers = await Promise.all(members.map((m, i) => exchange(m.headers, code!, i)))
    const codes = answers.map((a) => a.json<Res>().code)
    expect(codes.filter((c) => c === 200)).toHaveLength(1)
    expect(codes.filter((c) => c === 522)).toHaveLength(19)
    const { db } = t().database
    const grants = await db
      .select()
      .from(entitlements)
      .where(
        and(eq(entitlements.courseId, courseId), eq(entitlements.source, 'redeem'), isNull(entitlements.revokedAt)),
      )
    expect(grants).toHaveLength(1)
    expect(await db.select().from(redeemUses)).toHaveLength(1)
    const [row] = await db.select().from(redeemCodes)
    expect(row!.uses).toBe(1)
  })

  it('one member using two codes of a batch limited to one per member at once: one succeeds', async () => {
    const codes = await newCodes(2, 1)
    const m = await makeMember(t().database.db)
    const answers = await Promise.all(codes.map((c, i) => exchange(m.headers, c, 100 + i)))
    expect(answers.map((a) => a.json<Res>().code).sort()).toEqual([200, 526])
  })
})
