import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '#server/app.ts'
import { entitlements, vipMemberships } from '#server/db/schema/access.ts'
import { redeemCodes } from '#server/db/schema/redeem.ts'
import { staffActions } from '#server/db/schema/audit.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'
import { stepUpHeaders } from '#tests/support/staff.ts'
import { until } from '#server/modules/payments/testing.ts'
import { accessNow } from '#server/modules/access/access.service.ts'
import { parseCode } from './code-format.ts'

type Res<T = Record<string, unknown>> = { code: number; msg: string; data: T }
type Member = Awaited<ReturnType<typeof makeMember>>

const HOUR = 3_600_000
let ipCounter = 0
/** Each test its own client address, so the per-address limit only meets the tests about it. */
const freshIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`

describe('redeem codes (issue 14 §1)', () => {
  const t = useTestApp()
  let operator: Member
  let courseA: number
  let courseB: number

  beforeAll(async () => {
    const { db } = t().database
    operator = await makeMember(db, 'staff')
    courseA = await makeCourse(db, { title: '零基础学 PS' })
    courseB = await makeCourse(db, { title: 'AI 绘画入门' })
  })

  const staffHeaders = () => ({ ...operator.headers, ...stepUpHeaders(operator.token) })

  /** Creates a batch; answers its id and its codes as the CSV gave them. */
  async function batch(body: Record<string, unknown> = {}) {
    const now = Date.now()
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/admin/redeem/batches',
      headers: staffHeaders(),
      payload: {
        name: '测试批次',
        course_ids: [courseA],
        count: 3,
        valid_from: new Date(now - HOUR).toISOString(),
        valid_until: new Date(now + 24 * HOUR).toISOString(),
        ...body,
      },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv/)
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
    expect(lines[0]).toBe('序号,兑换码,批次,可兑换,有效期起,有效期至')
    const codes = lines.slice(1).map((l) => l.split(',')[1]!)
    return { id: Number(res.headers['x-redeem-batch-id']), codes }
  }

  async function call<T = Record<string, unknown>>(
    who: Member,
    method: 'GET' | 'POST',
    url: string,
    data: string,
    ip = '10.0.0.1',
  ) {
    const res = await t().app.inject({
      method,
      url,
      headers: who.headers,
      remoteAddress: ip,
      ...(method === 'GET' ? { query: { data } } : { payload: { data } }),
    })
    return { status: res.statusCode, headers: res.headers, body: res.json<Res<T>>() }
  }
  const exchange = (who: Member, code: string, ip = freshIp()) =>
    call(who, 'POST', '/api/redeem_code/exchange', code, ip)
  const preview = (who: Member, code: string, ip = freshIp()) => call(who, 'GET', '/api/redeem_code', code, ip)
  const learner = () => makeMember(t().database.db)
  const activeCourses = async (memberId: number) =>
    (
      await t()
        .database.db.select()
        .from(entitlements)
        .where(sql`${entitlements.memberId} = ${memberId} and ${entitlements.revokedAt} is null`)
    ).map((e) => ({ course: e.courseId, source: e.source }))

  it('creating a batch needs the redeem permission and a step-up proof; the database keeps only keyed hashes', async () => {
    const { db } = t().database
    const finance = await makeMember(db, ['finance'])
    const body = {
      name: '渠道 A',
      course_ids: [courseA],
      count: 2,
      valid_from: new Date().toISOString(),
      valid_until: new Date(Date.now() + HOUR).toISOString(),
    }
    const refuse = await t().app.inject({
      method: 'POST',
      url: '/api/admin/redeem/batches',
      headers: finance.headers,
      payload: body,
    })
    expect(refuse.statusCode).toBe(403)
    const noProof = await t().app.inject({
      method: 'POST',
      url: '/api/admin/redeem/batches',
      headers: operator.headers,
      payload: body,
    })
    expect(noProof.json<Res>().code).toBe(407)

    const { id, codes } = await batch({ count: 5, note: '经销商 张三' })
    expect(codes).toHaveLength(5)
    for (const c of codes) {
      expect(c).toMatch(/^\w{4}-\w{4}-\w{4}$/)
      expect(parseCode(c).ok).toBe(true)
    }
    const stored = await db.select().from(redeemCodes).where(eq(redeemCodes.batchId, id))
    expect(stored).toHaveLength(5)
    const dump = JSON.stringify(stored)
    for (const c of codes) {
      expect(dump).not.toContain(c.replaceAll('-', ''))
      expect(dump).not.toContain(c)
    }
    // The batch is in the console's list with its figures.
    const list = await t().app.inject({
      method: 'GET',
      url: '/api/admin/redeem/batches',
      headers: operator.headers,
      query: { q: '经销商' },
    })
    const page =
      list.json<Res<{ list: { id: number; code_count: number; used_codes: number; state: string }[]; total: number }>>()
    expect(page.data.list).toEqual([expect.objectContaining({ id, code_count: 5, used_codes: 0, state: 'active' })])
    // A wildcard in the search matches itself, not any text.
    const wild = await t().app.inject({
      method: 'GET',
      url: '/api/admin/redeem/batches',
      headers: operator.headers,
      query: { q: '经销商%三' },
    })
    expect(wild.json<Res<{ total: number }>>().data.total).toBe(0)
    // The creation is in the staff action log.
    await until(
      async () =>
        (await db.select().from(staffActions).where(eq(staffActions.route, '/api/admin/redeem/batches'))).length > 0,
    )
  })

  it('refuses a batch of unknown courses, of neither courses nor VIP days, and of more than 100,000 codes', async () => {
    const now = Date.now()
    const base = {
      name: '坏批次',
      count: 1,
      valid_from: new Date(now).toISOString(),
      valid_until: new Date(now + HOUR).toISOString(),
    }
    const post = (body: object) =>
      t().app.inject({
        method: 'POST',
        url: '/api/admin/redeem/batches',
        headers: staffHeaders(),
        payload: { ...base, ...body },
      })
    expect((await post({ course_ids: [987654] })).json<Res>().msg).toContain('课程 987654 不存在')
    expect((await post({})).statusCode).toBe(400)
    expect((await post({ course_ids: [courseA], count: 100_001 })).statusCode).toBe(400)
    expect((await post({ course_ids: [courseA], valid_until: new Date(now - HOUR).toISOString() })).statusCode).toBe(
      400,
    )
  })

  it('previews without using, exchanges once, and the course plays; the record lists it', async () => {
    const { codes } = await batch({ course_ids: [courseA, courseB] })
    const m = await learner()
    const typed = codes[0]!.toLowerCase().replaceAll('-', ' ')
    const p = await preview(m, typed)
    expect(p.body.code).toBe(200)
    expect(p.body.data).toMatchObject({
      code: codes[0],
      courses: [
        { id: courseA, title: '零基础学 PS', owned: false },
        { id: courseB, title: 'AI 绘画入门', owned: false },
      ],
      vip_days: null,
    })
    expect(await activeCourses(m.id)).toEqual([])

    const x = await exchange(m, typed)
    expect(x.body).toMatchObject({ code: 200, msg: '兑换成功' })
    expect(x.body.data).toMatchObject({ courses: [{ id: courseA }, { id: courseB }], vip_days: null })
    expect(await activeCourses(m.id)).toEqual(
      expect.arrayContaining([
        { course: courseA, source: 'redeem' },
        { course: courseB, source: 'redeem' },
      ]),
    )
    const access = await accessNow(t().database.db, m.id, { courseId: courseA }, new Date())
    expect(access).toMatchObject({ allowed: true })

    // Used: by the same member, by another.
    expect((await exchange(m, codes[0]!)).body).toMatchObject({ code: 522, msg: '你已经用过这个兑换码了' })
    expect((await exchange(await learner(), codes[0]!)).body).toMatchObject({ code: 522, msg: '这个兑换码已被使用' })
    expect((await preview(await learner(), codes[0]!)).body.code).toBe(522)

    const records = await t().app.inject({ method: 'GET', url: '/api/exchange_records', headers: m.headers })
    expect(records.json<Res<{ list: unknown[] }>>().data.list).toEqual([
      expect.objectContaining({
        kind: 'redeem',
        title: '《零基础学 PS》、《AI 绘画入门》',
        state: 'active',
        course_id: courseA,
        detail: '兑换码 · 测试批次',
      }),
    ])
  })

  it('tells a typo from an unknown code and from something that is not a code', async () => {
    const { codes } = await batch()
    const m = await learner()
    const c = codes[0]!.replaceAll('-', '')
    const typo = c.slice(0, 3) + (c[3] === 'A' ? 'B' : 'A') + c.slice(4)
    expect((await exchange(m, typo)).body).toMatchObject({ code: 520, msg: '兑换码有输错的字符，请核对后重新输入' })
    // A well-formed code (right check character) that was never issued.
    let unknown: string
    do unknown = (await import('./code-format.ts')).newCode()
    while (codes.includes(unknown))
    expect((await exchange(m, unknown)).body).toMatchObject({ code: 521, msg: '兑换码不存在，请确认后重新输入' })
    expect((await exchange(m, 'hello')).status).toBe(400)
    expect((await preview(m, typo)).body.code).toBe(520)
  })

  it('refuses expired, not yet valid and disabled codes', async () => {
    const now = Date.now()
    const expired = await batch({
      valid_from: new Date(now - 3 * HOUR).toISOString(),
      valid_until: new Date(now - HOUR).toISOString(),
    })
    const later = await batch({
      valid_from: new Date(now + HOUR).toISOString(),
      valid_until: new Date(now + 3 * HOUR).toISOString(),
    })
    const disabled = await batch()
    const off = await t().app.inject({
      method: 'POST',
      url: `/api/admin/redeem/batches/${disabled.id}/disable`,
      headers: operator.headers,
    })
    expect(off.json<Res<{ state: string }>>()).toMatchObject({ code: 200, data: { state: 'disabled' } })
    const m = await learner()
    expect((await exchange(m, expired.codes[0]!)).body).toMatchObject({ code: 523 })
    expect((await exchange(m, expired.codes[0]!)).body.msg).toMatch(
      /^兑换码已过期（有效期至 \d{4}-\d{2}-\d{2} \d{2}:\d{2}）$/,
    )
    expect((await exchange(m, later.codes[0]!)).body).toMatchObject({ code: 524 })
    expect((await exchange(m, later.codes[0]!)).body.msg).toMatch(/^兑换码还未到可用时间，.* 起可用$/)
    expect((await exchange(m, disabled.codes[0]!)).body).toMatchObject({ code: 525 })
    expect(await activeCourses(m.id)).toEqual([])
  })

  it('holds the per-member limit of a batch, and lets a multi-use code serve several members', async () => {
    const limited = await batch({ per_member_limit: 1 })
    const m = await learner()
    expect((await exchange(m, limited.codes[0]!)).body.code).toBe(200)
    expect((await exchange(m, limited.codes[1]!)).body).toMatchObject({
      code: 526,
      msg: '这批兑换码每人最多使用 1 个，你已达到上限',
    })
    const shared = await batch({ count: 1, uses_per_code: 2, per_member_limit: 1 })
    expect((await exchange(await learner(), shared.codes[0]!)).body.code).toBe(200)
    expect((await exchange(await learner(), shared.codes[0]!)).body.code).toBe(200)
    expect((await exchange(await learner(), shared.codes[0]!)).body.code).toBe(522)
  })

  it('does not use a code whose courses the member owns already; with some owned, grants the rest', async () => {
    const { db } = t().database
    const m = await learner()
    await db
      .insert(entitlements)
      .values({ memberId: m.id, courseId: courseA, source: 'purchase', sourceRef: 'T1', grantedAt: new Date() })
    const only = await batch({ count: 1 })
    const owned = await exchange(m, only.codes[0]!)
    expect(owned.body).toMatchObject({ code: 527, msg: '你已拥有《零基础学 PS》，无需兑换，这个兑换码没有被使用' })
    expect((await preview(m, only.codes[0]!)).body.data).toMatchObject({ courses: [{ id: courseA, owned: true }] })
    // Not used: someone else still can.
    expect((await exchange(await learner(), only.codes[0]!)).body.code).toBe(200)

    const both = await batch({ count: 1, course_ids: [courseA, courseB] })
    const x = await exchange(m, both.codes[0]!)
    expect(x.body.data).toMatchObject({ courses: [{ id: courseB, title: 'AI 绘画入门' }] })
  })

  it('grants VIP days, and revoking the used code takes them back', async () => {
    const vip = await batch({ course_ids: [], vip_days: 30, count: 1 })
    const m = await learner()
    const x = await exchange(m, vip.codes[0]!)
    expect(x.body.data).toMatchObject({ courses: [], vip_days: 30 })
    const until = new Date((x.body.data as { vip_expires_at: string }).vip_expires_at).getTime()
    expect(until - Date.now()).toBeGreaterThan(29.9 * 24 * HOUR)

    const codes = await t().app.inject({
      method: 'GET',
      url: '/api/admin/redeem/codes',
      headers: operator.headers,
      query: { batch_id: String(vip.id) },
    })
    const row = codes.json<Res<{ list: { id: number; state: string; member_id: number }[] }>>().data.list[0]!
    expect(row).toMatchObject({ state: 'used', member_id: m.id })
    const revoke = await t().app.inject({
      method: 'POST',
      url: `/api/admin/redeem/codes/${row.id}/revoke`,
      headers: operator.headers,
      payload: { reason: '经销商退货' },
    })
    expect(revoke.json<Res>()).toMatchObject({ code: 200, data: { revoked_uses: 1 } })
    const [vipRow] = await t().database.db.select().from(vipMemberships).where(eq(vipMemberships.memberId, m.id))
    expect(vipRow!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now())
  })

  it('revoking a used code revokes its grant: the course is gone, the record says why, the code is void', async () => {
    const b = await batch({ count: 2 })
    const m = await learner()
    expect((await exchange(m, b.codes[1]!)).body.code).toBe(200)
    expect(await activeCourses(m.id)).toEqual([{ course: courseA, source: 'redeem' }])
    // The console finds the code as typed, and shows who used it.
    const found = await t().app.inject({
      method: 'GET',
      url: '/api/admin/redeem/codes',
      headers: operator.headers,
      query: { batch_id: String(b.id), code: b.codes[1]!.toLowerCase() },
    })
    const rows = found.json<Res<{ list: { id: number; serial: number; state: string; member: string }[] }>>().data.list
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ serial: 2, state: 'used' })
    expect(rows[0]!.member).toContain('学员')
    const revoke = await t().app.inject({
      method: 'POST',
      url: `/api/admin/redeem/codes/${rows[0]!.id}/revoke`,
      headers: operator.headers,
      payload: { reason: '误发' },
    })
    expect(revoke.json<Res>()).toMatchObject({ code: 200, data: { revoked_uses: 1, revoked_courses: 1 } })
    expect(await activeCourses(m.id)).toEqual([])
    const again = await exchange(await learner(), b.codes[1]!)
    expect(again.body).toMatchObject({ code: 528 })
    const records = await t().app.inject({ method: 'GET', url: '/api/exchange_records', headers: m.headers })
    expect(records.json<Res<{ list: unknown[] }>>().data.list[0]).toMatchObject({
      kind: 'redeem',
      state: 'revoked',
      state_note: '兑换码已被作废，兑换的内容已收回',
    })
    const states = await t().app.inject({
      method: 'GET',
      url: '/api/admin/redeem/codes',
      headers: operator.headers,
      query: { batch_id: String(b.id), sort: 'serial' },
    })
    expect(states.json<Res<{ list: { state: string }[] }>>().data.list.map((r) => r.state)).toEqual([
      'unused',
      'revoked',
    ])
  })

  it('bounds guessing per member: 10 wrong codes an hour, then 429 with the wait, even for a real code', async () => {
    const { codes } = await batch({ count: 1 })
    const m = await learner()
    for (let i = 0; i < 10; i++) {
      const wrong = (await import('./code-format.ts')).newCode()
      expect((await exchange(m, wrong)).body.code).toBe(521)
    }
    const blocked = await exchange(m, codes[0]!)
    expect(blocked.status).toBe(429)
    expect(blocked.body.msg).toMatch(/^兑换码输错次数太多，请 \d+ 分钟后再试$/)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(3000)
    // Real codes do not use the allowance: another member tries 9 wrong and 5 real previews, and is not blocked.
    const other = await learner()
    for (let i = 0; i < 9; i++)
      expect((await exchange(other, (await import('./code-format.ts')).newCode())).body.code).toBe(521)
    for (let i = 0; i < 5; i++) expect((await preview(other, codes[0]!)).body.code).toBe(200)
    expect((await exchange(other, codes[0]!)).body.code).toBe(200)
  })

  it('bounds guessing per client address across members, and the count holds in another process on the same database', async () => {
    const ip = '10.9.9.9'
    for (let i = 0; i < 10; i++) {
      const m = await learner()
      expect((await exchange(m, (await import('./code-format.ts')).newCode(), ip)).body.code).toBe(521)
    }
    // A second app on the same database (another process, or this one after a restart) sees the same count.
    const second = await buildApp(t().config, { logger: false, database: t().database })
    try {
      const m = await learner()
      const res = await second.inject({
        method: 'POST',
        url: '/api/redeem_code/exchange',
        headers: m.headers,
        remoteAddress: ip,
        payload: { data: (await import('./code-format.ts')).newCode() },
      })
      expect(res.statusCode).toBe(429)
    } finally {
      await second.close()
    }
  })

  it('is for signed-in members only', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/redeem_code', query: { data: 'ABCD-EFGH-JKMN' } })
    expect(res.json<Res>().code).toBe(301)
  })

  it('exports the batch list as CSV with the same filters, after a step-up proof, and never a code', async () => {
    const b = await batch({ name: '导出测试批次', note: '书店渠道', count: 2 })
    const url = '/api/admin/redeem/batches'
    const query = { format: 'csv', q: '导出测试' }
    const refused = await t().app.inject({ method: 'GET', url, headers: operator.headers, query })
    expect(refused.json<Res>().code).not.toBe(200)
    const res = await t().app.inject({ method: 'GET', url, headers: staffHeaders(), query })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv/)
    const rows = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
    expect(rows[0]).toBe(
      '批次ID,名称,可兑换,兑换码数,已使用,已作废,每码可用次数,每人限用,有效期起,有效期至,状态,备注,创建时间',
    )
    expect(rows).toHaveLength(2)
    expect(rows[1]).toMatch(new RegExp(`^${b.id},导出测试批次,1 门课程,2,0,0,1,1,.*,可用,书店渠道,`))
    for (const code of b.codes) expect(res.body).not.toContain(code)
  })
})
