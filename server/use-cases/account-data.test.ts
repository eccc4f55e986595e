import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { comments } from '#server/db/schema/comments.ts'
import { favourites } from '#server/db/schema/favourites.ts'
import { studyProgress } from '#server/db/schema/learning.ts'
import { uploads } from '#server/db/schema/media.ts'
import { members } from '#server/db/schema/members.ts'
import { orders } from '#server/db/schema/orders.ts'
import { outboxCode, randomIp, signIn } from '#server/modules/auth/testing.ts'
import { multipartFile } from '#server/modules/media/testing.ts'
import { headersOf, paidCourse, useCommerceApp, type ApiBody } from '#server/modules/payments/testing.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'

interface Export {
  profile: { id: number; phone: string }
  orders: { order_no: string; items: { course_id: number }[] }[]
  entitlements: { course_id: number }[]
  progress: { video_id: number }[]
  comments: { content: string }[]
  favourites: { course_id: number }[]
  points: { balance: number; entries: unknown[] }
  sessions: { state: string }[]
}

describe('a member exports their data and deletes their account (issue 10 §5, PIPL)', () => {
  const { t, clock } = useCommerceApp()

  const post = async <T>(url: string, token: string, payload?: Record<string, unknown>) => {
    const res = await t().app.inject({
      method: 'POST',
      url,
      headers: headersOf(token),
      payload,
      remoteAddress: randomIp(),
    })
    return res.json<ApiBody<T>>()
  }
  const phoneOf = async (id: number) =>
    (await t().database.db.select({ phone: members.phone }).from(members).where(eq(members.id, id)))[0]!.phone!

  /** A member with a paid course, some progress, a comment and a favourite. */
  async function activeMember() {
    const db = t().database.db
    const { m, course, video, orderNo } = await paidCourse(t)
    const at = clock.now()
    await db.insert(studyProgress).values({
      memberId: m.id,
      videoId: video,
      courseId: course,
      position: 30,
      duration: 600,
      createdAt: at,
      updatedAt: at,
    })
    await db
      .insert(comments)
      .values({ memberId: m.id, courseId: course, threadMemberId: m.id, content: '讲得很清楚', createdAt: at })
    await db.insert(favourites).values({ memberId: m.id, courseId: course, createdAt: at })
    return { m, course, orderNo, phone: await phoneOf(m.id) }
  }

  it('exports everything held about the member as JSON, after a fresh SMS code', async () => {
    const { m, course, orderNo, phone } = await activeMember()
    expect((await post('/api/account/export', m.token, { code: '123456' })).code).toBe(406)
    expect((await post<{ phone: string }>('/api/account/send_code', m.token)).data.phone).toBe(
      `${phone.slice(0, 3)}****${phone.slice(-4)}`,
    )
    const code = await outboxCode(t().app, phone, 'account')
    const wrong = code === '000000' ? '111111' : '000000'
    expect((await post('/api/account/export', m.token, { code: wrong })).code).toBe(405)
    const data = (await post<Export>('/api/account/export', m.token, { code })).data
    expect(data.profile).toMatchObject({ id: m.id, phone })
    expect(data.orders.map((o) => o.order_no)).toEqual([orderNo])
    expect(data.orders[0]!.items.map((i) => i.course_id)).toEqual([course])
    expect(data.entitlements.map((e) => e.course_id)).toEqual([course])
    expect(data.progress).toHaveLength(1)
    expect(data.comments.map((c) => c.content)).toEqual(['讲得很清楚'])
    expect(data.favourites.map((f) => f.course_id)).toEqual([course])
    expect(data.points.balance).toBeGreaterThan(0)
    expect(data.sessions.some((s) => s.state === 'active')).toBe(true)
    // A code works once.
    expect((await post('/api/account/export', m.token, { code })).code).toBe(406)
  })

  it('deletes the account: personal data gone, the order kept anonymised, every session ended', async () => {
    const db = t().database.db
    const { m, orderNo, phone } = await activeMember()
    await post('/api/account/send_code', m.token)
    const code = await outboxCode(t().app, phone, 'account')
    const done = await post<{ deleted: boolean; erased: Record<string, number> }>('/api/account/delete', m.token, {
      code,
    })
    expect(done).toMatchObject({ code: 200, data: { deleted: true } })
    expect(done.data.erased).toMatchObject({ progress: 1, comments: 1, favourites: 1 })
    // The token no longer works.
    const me = await t().app.inject({ method: 'GET', url: '/api/userinfo', headers: headersOf(m.token) })
    expect([301, 504]).toContain(me.json<ApiBody>().code)
    const [row] = await db.select().from(members).where(eq(members.id, m.id))
    expect(row).toMatchObject({ phone: null, wxOpenid: null, nickname: '已注销用户', avatarUrl: null })
    expect(row!.deletedAt).not.toBeNull()
    // The order stays (accounting), tied to the anonymised row.
    const [order] = await db.select().from(orders).where(eq(orders.orderNo, orderNo))
    expect(order).toMatchObject({ memberId: m.id, state: 'paid' })
    expect(await db.select().from(studyProgress).where(eq(studyProgress.memberId, m.id))).toEqual([])
    expect(await db.select().from(comments).where(eq(comments.memberId, m.id))).toEqual([])
    expect(await db.select().from(favourites).where(eq(favourites.memberId, m.id))).toEqual([])
    // Signing in with the same phone later is a new, empty member.
    clock.advance(61_000)
    const again = await signIn(t().app, phone)
    const fresh = await t().app.inject({ method: 'GET', url: '/api/userinfo', headers: headersOf(again.token) })
    expect(fresh.json<ApiBody<{ member_id: number }>>().data.member_id).not.toBe(m.id)
  })

  it('deleting the account removes the uploaded avatar from storage too', async () => {
    const db = t().database.db
    const { m, phone } = await activeMember()
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3a7bd5' } })
      .png()
      .toBuffer()
    const { payload, headers } = multipartFile(png)
    const uploaded = await t().app.inject({
      method: 'POST',
      url: '/api/uploadImage',
      headers: { ...headers, ...headersOf(m.token) },
      payload,
    })
    const url = uploaded.json<ApiBody<{ url: string }>>().data.url
    expect((await post('/api/center/updateMemberInfo', m.token, { avatar: url })).code).toBe(200)
    expect((await t().app.inject({ method: 'GET', url })).statusCode).toBe(200)

    await post('/api/account/send_code', m.token)
    const code = await outboxCode(t().app, phone, 'account')
    const done = await post<{ erased: Record<string, number> }>('/api/account/delete', m.token, { code })
    expect(done.data.erased).toMatchObject({ images: 1 })
    expect(await db.select().from(uploads).where(eq(uploads.memberId, m.id))).toEqual([])
    expect((await t().app.inject({ method: 'GET', url })).statusCode).toBe(404)
  })

  it('a wrong code deletes nothing; staff accounts are closed by an admin', async () => {
    const db = t().database.db
    const { m } = await activeMember()
    expect((await post('/api/account/delete', m.token, { code: '123456' })).code).toBe(406)
    expect((await db.select().from(members).where(eq(members.id, m.id)))[0]!.deletedAt).toBeNull()
    const staff = await makeMember(db, 'admin')
    expect((await post('/api/account/delete', staff.token, { code: '123456' })).code).toBe(403)
  })
})
