import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { members } from '#server/db/schema/members.ts'
import { staffActions } from '#server/db/schema/audit.ts'
import { vipMemberships } from '#server/db/schema/access.ts'
import { until } from '#server/modules/payments/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { stepUpHeaders } from '#tests/support/staff.ts'
import { makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'

type Res<T = Record<string, unknown>> = { code: number; msg: string; data: T }
interface Page<T> {
  list: T[]
  total: number
  page: number
  page_size: number
}
interface Listed {
  id: number
  phone: string | null
  nickname: string
  created_at: string
}
interface Ent {
  id: number
  course_id: number
  source: string
  active: boolean
  why: string
  course_title?: string
  order_no?: string | null
}

describe('members in the operators console (/api/admin/members)', () => {
  const t = useTestApp()
  let admin: Awaited<ReturnType<typeof makeMember>>
  // Staff whose roles do not cover members (a teacher): refused like a learner.
  let staff: Record<string, string>
  let learner: Record<string, string>

  beforeAll(async () => {
    const { db } = t().database
    admin = await makeMember(db, 'admin')
    staff = (await makeMember(db, ['teacher'])).headers
    learner = (await makeMember(db, 'member')).headers
  })

  const call = async <T = Record<string, unknown>>(
    method: 'GET' | 'POST',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = admin.headers,
  ) => {
    const res = await t().app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: res.statusCode, body: res.json<Res<T>>() }
  }

  /** A member with a known phone and nickname, joined at `createdAt`. */
  async function person(phone: string, nickname: string, createdAt = new Date()) {
    const [row] = await t()
      .database.db.insert(members)
      .values({ phone, nickname, createdAt })
      .returning({ id: members.id })
    return row!.id
  }

  it.each([
    ['GET', '/api/admin/members'],
    ['GET', '/api/admin/members/1'],
    ['GET', '/api/admin/members/1/entitlements'],
    ['POST', '/api/admin/members/1/courses'],
    ['POST', '/api/admin/members/1/entitlements/1/revoke'],
    ['POST', '/api/admin/members/1/sessions/revoke'],
  ] as const)('%s %s: 301 without a session, 403 to a member and to staff', async (method, url) => {
    const payload = method === 'GET' ? undefined : {}
    expect((await call(method, url, payload, {})).body.code).toBe(301)
    expect((await call(method, url, payload, learner)).status).toBe(403)
    expect((await call(method, url, payload, staff)).status).toBe(403)
  })

  it('lets each role through where its permissions reach: operators grant, finance and assistants only read', async () => {
    const { db } = t().database
    const m = await makeMember(db)
    const course = await makeCourse(db, { title: '运营授予的课' })
    const operator = await makeMember(db, ['operator'])
    const finance = await makeMember(db, ['finance'])
    const assistant = await makeMember(db, ['assistant'])
    for (const who of [operator, finance, assistant]) {
      expect((await call('GET', `/api/admin/members?q=${m.id}`, undefined, who.headers)).body.code).toBe(200)
      expect((await call('GET', `/api/admin/members/${m.id}/entitlements`, undefined, who.headers)).body.code).toBe(200)
    }
    const grant = { course_id: course, reason: '活动赠送' }
    for (const who of [finance, assistant])
      expect((await call('POST', `/api/admin/members/${m.id}/courses`, grant, who.headers)).status).toBe(403)
    const granted = await call<Ent>('POST', `/api/admin/members/${m.id}/courses`, grant, operator.headers)
    expect(granted.body.data).toMatchObject({ course_id: course, source: 'admin', active: true })
  })

  describe('search', () => {
    let ids: number[]
    beforeAll(async () => {
      const day = 24 * 3600 * 1000
      ids = [
        await person('13700000001', '剪辑小王', new Date(Date.now() - 10 * day)),
        await person('13700000002', '设计_小李', new Date(Date.now() - 5 * day)),
        await person('13700000003', '剪辑老张', new Date(Date.now() - 1 * day)),
        await person('13700000004', 'Tom的插画', new Date(Date.now() - 1 * day)),
      ]
    })

    it('finds by phone, by id and by part of a nickname (wildcards match themselves)', async () => {
      const byPhone = await call<Page<Listed>>('GET', '/api/admin/members?q=13700000002')
      expect(byPhone.body.data).toMatchObject({ total: 1, list: [{ id: ids[1], phone: '13700000002' }] })
      const byId = await call<Page<Listed>>('GET', `/api/admin/members?q=${ids[2]}`)
      expect(byId.body.data.list.map((m) => m.id)).toEqual([ids[2]])
      const byName = await call<Page<Listed>>('GET', `/api/admin/members?q=${encodeURIComponent('剪辑')}&sort=id`)
      expect(byName.body.data.list.map((m) => m.nickname)).toEqual(['剪辑小王', '剪辑老张'])
      const underscore = await call<Page<Listed>>('GET', `/api/admin/members?q=${encodeURIComponent('计_小')}`)
      expect(underscore.body.data.list.map((m) => m.id)).toEqual([ids[1]])
      const none = await call<Page<Listed>>('GET', `/api/admin/members?q=${encodeURIComponent('计%小')}`)
      expect(none.body.data).toMatchObject({ total: 0, list: [] })
    })

    it('tags the members whose VIP is running, not those whose VIP ended', async () => {
      const day = 24 * 3600 * 1000
      await t()
        .database.db.insert(vipMemberships)
        .values([
          { memberId: ids[0]!, expiresAt: new Date(Date.now() + 30 * day), updatedAt: new Date() },
          { memberId: ids[2]!, expiresAt: new Date(Date.now() - day), updatedAt: new Date() },
        ])
      const found = await call<Page<Listed & { vip_active: boolean }>>(
        'GET',
        `/api/admin/members?q=${encodeURIComponent('剪辑')}&sort=id`,
      )
      expect(found.body.data.list.map((m) => [m.id, m.vip_active])).toEqual([
        [ids[0], true],
        [ids[2], false],
      ])
      const page = await call<{ vip_active: boolean; vip_expires_at: string | null }>(
        'GET',
        `/api/admin/members/${ids[2]}`,
      )
      expect(page.body.data.vip_active).toBe(false)
      expect(page.body.data.vip_expires_at).not.toBeNull()
    })

    it('finds a one-character part and ignores the case of Latin letters (the gram index, migration 0037)', async () => {
      const names = async (q: string) =>
        (await call<Page<Listed>>('GET', `/api/admin/members?q=${encodeURIComponent(q)}&sort=id`)).body.data.list.map(
          (m) => m.nickname,
        )
      expect(await names('张')).toEqual(['剪辑老张'])
      expect(await names('tOM')).toEqual(['Tom的插画'])
      expect(await names('m的插')).toEqual(['Tom的插画'])
      expect(await names('插画Tom')).toEqual([])
    })

    it('pages and sorts on the server, and filters by joining day (Beijing)', async () => {
      const q = `q=${encodeURIComponent('剪辑')}`
      const first = await call<Page<Listed>>('GET', `/api/admin/members?${q}&sort=-created_at&page_size=1`)
      expect(first.body.data).toMatchObject({ total: 2, page: 1, page_size: 1, list: [{ id: ids[2] }] })
      const second = await call<Page<Listed>>('GET', `/api/admin/members?${q}&sort=-created_at&page_size=1&page=2`)
      expect(second.body.data.list.map((m) => m.id)).toEqual([ids[0]])
      const asc = await call<Page<Listed>>('GET', `/api/admin/members?${q}&sort=created_at`)
      expect(asc.body.data.list.map((m) => m.id)).toEqual([ids[0], ids[2]])
      const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000 + 8 * 3600 * 1000).toISOString().slice(0, 10)
      const recent = await call<Page<Listed>>('GET', `/api/admin/members?${q}&joined_from=${twoDaysAgo}`)
      expect(recent.body.data.list.map((m) => m.id)).toEqual([ids[2]])
    })

    it.each([
      ['sort=phone', 'sort', '排序格式不正确'],
      ['page_size=101', 'page_size', '每页条数格式不正确'],
      ['page=0', 'page', '页码格式不正确'],
      ['joined_from=2026-1-1', 'joined_from', '填写的内容格式不正确，请检查后重试'],
      ['role=root', 'role', '角色格式不正确'],
    ])('answers 400 naming the field for %s', async (query, field, msg) => {
      const res = await call('GET', `/api/admin/members?${query}`)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ msg, data: { field } })
    })

    it('exports what the filter shows as CSV (format=csv) after a fresh SMS code, with when VIP ends', async () => {
      const vipEnds = new Date('2027-03-01T04:00:00Z')
      await t()
        .database.db.insert(vipMemberships)
        .values({ memberId: ids[0]!, expiresAt: vipEnds, updatedAt: new Date() })
        .onConflictDoUpdate({ target: vipMemberships.memberId, set: { expiresAt: vipEnds } })
      await t().database.db.delete(vipMemberships).where(eq(vipMemberships.memberId, ids[2]!))
      const url = `/api/admin/members?q=${encodeURIComponent('剪辑')}&sort=id&format=csv`
      const refused = await t().app.inject({ method: 'GET', url, headers: admin.headers })
      expect(refused.json<Res>()).toMatchObject({ code: 407 })
      const res = await t().app.inject({
        method: 'GET',
        url,
        headers: { ...admin.headers, ...stepUpHeaders(admin.token) },
      })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/csv/)
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="members-\d{4}-\d{2}-\d{2}\.csv"$/)
      const lines = res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n')
      expect(lines[0]).toBe('会员ID,手机号,昵称,角色,VIP到期,绑定微信,注册时间,最近登录')
      expect(lines.slice(1).map((l) => l.split(',').slice(0, 5).join(','))).toEqual([
        `${ids[0]},13700000001,剪辑小王,学员,2027-03-01 12:00:00`,
        `${ids[2]},13700000003,剪辑老张,学员,`,
      ])
    })
  })

  describe("a member's page", () => {
    it('grants a course with a reason, shows why, and the learner can watch at once; revoking takes it away', async () => {
      const { db } = t().database
      const m = await makeMember(db)
      const course = await makeCourse(db, { title: '从零学剪辑', priceFen: 19900 })
      const video = await makeVideo(db, course, { title: '第一课' })
      const canWatch = async () =>
        (await call<{ access: { mode: string } }>('GET', `/api/video?vid=${video}`, undefined, m.headers)).body.data
          .access?.mode

      expect(await canWatch()).not.toBe('full')
      const missing = await call('POST', `/api/admin/members/${m.id}/courses`, { course_id: course })
      expect(missing).toMatchObject({ status: 400, body: { msg: '请填写原因' } })
      const tooShort = await call('POST', `/api/admin/members/${m.id}/courses`, { course_id: course, reason: '好' })
      expect(tooShort.body.msg).toBe('原因格式不正确')
      const unknownCourse = await call('POST', `/api/admin/members/${m.id}/courses`, {
        course_id: 999999,
        reason: '客服补偿',
      })
      expect(unknownCourse.body).toMatchObject({ code: 404, msg: '课程 999999 不存在' })

      const granted = await call<Ent>('POST', `/api/admin/members/${m.id}/courses`, {
        course_id: course,
        reason: '客服补偿',
      })
      expect(granted.body.data).toMatchObject({
        course_id: course,
        source: 'admin',
        active: true,
        why: `后台授予（操作员 ${admin.id}：客服补偿）`,
      })
      expect(granted.body.data).toMatchObject({
        granted_by: { member_id: admin.id, nickname: expect.stringMatching(/^学员/) as string },
        reason: '客服补偿',
        order_no: null,
      })
      expect(await canWatch()).toBe('full')

      const listed = await call<{ list: Ent[] }>('GET', `/api/admin/members/${m.id}/entitlements`)
      expect(listed.body.data.list).toEqual([
        expect.objectContaining({ id: granted.body.data.id, course_title: '从零学剪辑', active: true }),
      ])

      const other = await makeMember(db)
      const wrongMember = await call(
        'POST',
        `/api/admin/members/${other.id}/entitlements/${granted.body.data.id}/revoke`,
        { reason: '误操作' },
      )
      expect(wrongMember.body.code).toBe(404)
      const noReason = await call('POST', `/api/admin/members/${m.id}/entitlements/${granted.body.data.id}/revoke`, {})
      expect(noReason.status).toBe(400)
      const revoked = await call<Ent>(
        'POST',
        `/api/admin/members/${m.id}/entitlements/${granted.body.data.id}/revoke`,
        { reason: '误授予，收回' },
      )
      expect(revoked.body.data).toMatchObject({ active: false })
      expect(await canWatch()).not.toBe('full')

      // Each change is in the staff action log with its reason; the refused ones too.
      // The log is written after the answer is sent: wait for the last one.
      const logged = () => db.select().from(staffActions).where(eq(staffActions.memberId, admin.id))
      await until(async () =>
        (await logged()).some((a) => (a.body as { reason?: string } | null)?.reason === '误授予，收回'),
      )
      const log = await logged()
      const routes = log.map((a) => [a.route, a.code, (a.body as { reason?: string } | null)?.reason])
      expect(routes).toEqual(
        expect.arrayContaining([
          ['/api/admin/members/:id/courses', 200, '客服补偿'],
          ['/api/admin/members/:id/courses', 400, undefined],
          ['/api/admin/members/:id/entitlements/:entitlement_id/revoke', 200, '误授予，收回'],
        ]),
      )
    })

    it('shows a purchase as the order it came from', async () => {
      const { db } = t().database
      const m = await makeMember(db)
      const course = await makeCourse(db)
      const { entitlements } = await import('#server/db/schema/access.ts')
      await db.insert(entitlements).values({
        memberId: m.id,
        courseId: course,
        source: 'purchase',
        sourceRef: 'ZX202611250000000001',
        grantedAt: new Date(),
      })
      const listed = await call<{ list: Ent[] }>('GET', `/api/admin/members/${m.id}/entitlements`)
      expect(listed.body.data.list[0]).toMatchObject({
        why: '购买（订单 ZX202611250000000001）',
        order_no: 'ZX202611250000000001',
        granted_by: null,
        reason: null,
      })
    })

    it('lists sign-in sessions and signs the member out of one or all, at once', async () => {
      const { db } = t().database
      const m = await makeMember(db)
      const { issueSession } = await import('#server/modules/sessions/session.service.ts')
      const second = await issueSession(db, m.id, 3, new Date())
      const page = await call<{ sessions: { id: number; state: string }[]; points_balance: number }>(
        'GET',
        `/api/admin/members/${m.id}`,
      )
      expect(page.body.data.sessions.map((s) => s.state)).toEqual(['active', 'active'])
      expect(page.body.data.points_balance).toBe(0)
      const [newest, oldest] = page.body.data.sessions

      const one = await call<{ revoked: number }>('POST', `/api/admin/members/${m.id}/sessions/revoke`, {
        session_id: newest!.id,
        reason: '账号被盗',
      })
      expect(one.body.data.revoked).toBe(1)
      expect((await call('GET', '/api/userinfo', undefined, { 'zxb-token': second.token })).body.code).toBe(301)
      expect((await call('GET', '/api/userinfo', undefined, m.headers)).body.code).toBe(200)

      const unknown = await call('POST', `/api/admin/members/${m.id}/sessions/revoke`, {
        session_id: 999999,
        reason: '账号被盗',
      })
      expect(unknown.body.code).toBe(404)

      const all = await call<{ revoked: number; sessions: { id: number; state: string }[] }>(
        'POST',
        `/api/admin/members/${m.id}/sessions/revoke`,
        { reason: '账号被盗' },
      )
      expect(all.body.data.revoked).toBe(1)
      expect(all.body.data.sessions.find((s) => s.id === oldest!.id)!.state).toBe('revoked')
      expect((await call('GET', '/api/userinfo', undefined, m.headers)).body.code).toBe(301)
    })

    it("shows the member's points ledger with who made each change (members never see who)", async () => {
      const { db } = t().database
      const m = await makeMember(db)
      const adjusted = await t().app.inject({
        method: 'POST',
        url: '/api/admin/points/adjust',
        headers: { ...admin.headers, 'idempotency-key': `members-test-${m.id}` },
        payload: { member_id: m.id, delta: 500, note: '客服补偿' },
      })
      expect(adjusted.json<Res>().code).toBe(200)
      const ledger = await call<{ total: number; list: { delta: number; note: string; actor: string }[] }>(
        'GET',
        `/api/admin/points/ledger?member_id=${m.id}`,
      )
      expect(ledger.body.data).toMatchObject({
        total: 1,
        list: [{ delta: 500, balance_after: 500, note: '客服补偿', actor: `admin:${admin.id}` }],
      })
      expect((await call('GET', '/api/admin/points')).status).toBe(404)
      expect((await call('GET', `/api/admin/points/ledger?member_id=${m.id}`, undefined, staff)).status).toBe(403)
      const own = await call<{ list: Record<string, unknown>[] }>('GET', '/api/points', undefined, m.headers)
      expect(own.body.data.list[0]).not.toHaveProperty('actor')
      expect(
        (await call<{ points_balance: number }>('GET', `/api/admin/members/${m.id}`)).body.data.points_balance,
      ).toBe(500)
    })

    it('answers 404 for an unknown member', async () => {
      expect((await call('GET', '/api/admin/members/999999')).body).toMatchObject({ code: 404 })
    })
  })
})
