import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Db } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { outboxCode, randomIp, randomPhone, signIn, testClock } from '#server/modules/auth/testing.ts'
import { issueSession } from '#server/modules/sessions/session.service.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeCourse, makeVideo } from '#tests/support/media-fixtures.ts'
import { mergeMembers } from './merge-members.ts'

type Body<T = Record<string, unknown>> = { code: number; msg: string; data: T }
const now = new Date()

/** A member who came in through WeChat (no phone) with a live WeChat session. */
async function wechatMember(db: Db, openid = `o_${randomPhone()}`) {
  const rows = await db.execute<{ id: number }>(
    sql`insert into members (nickname, wx_openid) values ('微信用户', ${openid}) returning id`,
  )
  const id = rows.rows[0]!.id
  const { token } = await issueSession(db, id, 3, now)
  return { id, token, openid }
}

async function memberIdOf(db: Db, phone: string) {
  return (await db.execute<{ id: number }>(sql`select id from members where phone = ${phone}`)).rows[0]!.id
}

async function grantCourse(db: Db, memberId: number, courseId: number) {
  await db.execute(sql`insert into entitlements (member_id, course_id, source, source_ref, granted_at)
    values (${memberId}, ${courseId}, 'admin', 'test', now())`)
}

async function givePoints(db: Db, memberId: number, points: number) {
  await db.execute(
    sql`insert into point_balances (member_id, balance, updated_at) values (${memberId}, ${points}, now())`,
  )
  await db.execute(sql`insert into point_entries (member_id, delta, balance_after, reason, actor, created_at)
    values (${memberId}, ${points}, ${points}, 'admin_adjust', 'admin:1', now())`)
}

async function watch(db: Db, memberId: number, videoId: number, courseId: number, position: number) {
  await db.execute(sql`insert into study_progress (member_id, video_id, course_id, position, duration, created_at, updated_at)
    values (${memberId}, ${videoId}, ${courseId}, ${position}, 100, now(), now())`)
}

async function favourite(db: Db, memberId: number, courseId: number) {
  await db.execute(
    sql`insert into favourites (member_id, course_id, created_at) values (${memberId}, ${courseId}, now())`,
  )
}

async function paidOrder(db: Db, memberId: number, courseId: number) {
  const no = `ZX${Date.now()}${Math.floor(Math.random() * 1e6)}`
  await db.execute(sql`insert into orders (order_no, member_id, kind, target, title, amount_fen, original_fen, state,
      pay_method, created_at, expires_at, paid_at, updated_at)
    values (${no}, ${memberId}, 'course', ${`course:${courseId}`}, '课', 100, 100, 'paid', 'wechat_jsapi', now(), now(),
      now(), now())`)
  return no
}

const count = async (db: Db, query: ReturnType<typeof sql>) =>
  Number((await db.execute<{ n: string }>(query)).rows[0]!.n)

describe('bind phone: two members become one (issue 10 §3)', () => {
  const clock = testClock()
  const t = useTestApp({}, { integrations: { now: clock.now } })
  const db = () => t().database.db
  const send = (token: string, phone: string) => {
    clock.advance(61_000) // past the 60 s gap after the login code
    return t().app.inject({
      method: 'POST',
      url: '/api/bind_phone_send_code',
      headers: { 'zxb-token': token },
      payload: { phone },
      remoteAddress: randomIp(),
    })
  }
  const bind = (token: string, phone: string, phone_code: string) =>
    t().app.inject({
      method: 'POST',
      url: '/api/bind_phone',
      headers: { 'zxb-token': token },
      payload: { phone, phone_code },
    })
  const me = (token: string) => t().app.inject({ method: 'GET', url: '/api/userinfo', headers: { 'zxb-token': token } })

  it('merges a WeChat member into the phone’s member: access, orders, points, progress, favourites, one log row', async () => {
    const a = await makeCourse(db(), { title: '手机号买的课' })
    const b = await makeCourse(db(), { title: '微信买的课' })
    const v1 = await makeVideo(db(), a)
    const v2 = await makeVideo(db(), a, { title: '第 2 课', sort: 1 })
    const { phone, token: phoneToken } = await signIn(t().app)
    const p = await memberIdOf(db(), phone)
    await grantCourse(db(), p, a)
    await givePoints(db(), p, 100)
    await watch(db(), p, v1, a, 30)
    await favourite(db(), p, a)
    await paidOrder(db(), p, a)

    const w = await wechatMember(db())
    await grantCourse(db(), w.id, b)
    await givePoints(db(), w.id, 30)
    await watch(db(), w.id, v1, a, 80)
    await watch(db(), w.id, v2, a, 10)
    await favourite(db(), w.id, a)
    await favourite(db(), w.id, b)
    const wOrder = await paidOrder(db(), w.id, b)

    const sent = await send(w.token, phone)
    expect(sent.json()).toEqual({ code: 200, msg: '已发送验证码', data: { merge: true } })
    const res = await bind(w.token, phone, await outboxCode(t().app, phone, 'bind'))
    const body = res.json<Body<{ member_id: number; merged: boolean; token: string; wechat_bound: boolean }>>()
    expect(body.code).toBe(200)
    expect(body.data).toMatchObject({ member_id: p, merged: true, wechat_bound: true })
    // The new token is also the session cookie of server-rendered pages.
    expect(res.cookies.find((c) => c.name === 'zx_session')).toMatchObject({ value: body.data.token, httpOnly: true })

    // The WeChat member's token ended; the new one and the phone member's old one are the same member.
    expect((await me(w.token)).json<Body>().code).toBe(301)
    expect((await me(body.data.token)).json<Body<{ member_id: number }>>().data.member_id).toBe(p)
    expect((await me(phoneToken)).json<Body<{ member_id: number }>>().data.member_id).toBe(p)

    const d = db()
    expect(
      await count(d, sql`select count(*) n from entitlements where member_id = ${p} and course_id in (${a}, ${b})`),
    ).toBe(2)
    expect(await count(d, sql`select count(*) n from entitlements where member_id = ${w.id}`)).toBe(0)
    expect(await count(d, sql`select count(*) n from orders where member_id = ${p} and order_no = ${wOrder}`)).toBe(1)
    expect(await count(d, sql`select balance n from point_balances where member_id = ${p}`)).toBe(130)
    // Ledgers are appended to, never edited: W keeps its history plus one entry out, P one entry in.
    const ledger = await d.execute<{ member_id: number; delta: number; reason: string }>(
      sql`select member_id, delta, reason from point_entries where member_id in (${p}, ${w.id}) order by id`,
    )
    expect(ledger.rows.map((r) => [r.member_id, r.delta, r.reason])).toEqual([
      [p, 100, 'admin_adjust'],
      [w.id, 30, 'admin_adjust'],
      [w.id, -30, 'member_merged'],
      [p, 30, 'member_merged'],
    ])
    const progress = await d.execute<{ video_id: number; position: number }>(
      sql`select video_id, position from study_progress where member_id = ${p} order by video_id`,
    )
    expect(progress.rows).toEqual([
      { video_id: v1, position: 80 },
      { video_id: v2, position: 10 },
    ])
    expect(await count(d, sql`select count(*) n from favourites where member_id = ${p}`)).toBe(2)
    expect(await count(d, sql`select count(*) n from favourites where member_id = ${w.id}`)).toBe(0)
    const log = await d.execute<{ survivor_id: number; absorbed_id: number; moved: Record<string, number> }>(
      sql`select survivor_id, absorbed_id, moved from member_merges where absorbed_id = ${w.id}`,
    )
    expect(log.rows).toHaveLength(1)
    expect(log.rows[0]).toMatchObject({
      survivor_id: p,
      moved: { entitlements: 1, orders: 1, points: 30, progress: 2 },
    })
    const gone = await d.execute<{ merged_into_id: number; wx_openid: string | null }>(
      sql`select merged_into_id, wx_openid from members where id = ${w.id}`,
    )
    expect(gone.rows[0]).toEqual({ merged_into_id: p, wx_openid: null })
    expect(await count(d, sql`select count(*) n from members where id = ${p} and wx_openid = ${w.openid}`)).toBe(1)
  })

  it('refuses (433) when the phone’s member is another WeChat user, and changes nothing', async () => {
    const { phone } = await signIn(t().app)
    const p = await memberIdOf(db(), phone)
    await db().execute(sql`update members set wx_openid = ${`o_other_${p}`} where id = ${p}`)
    const w = await wechatMember(db())
    expect((await send(w.token, phone)).json()).toEqual({ code: 433, msg: '该手机号已绑定其他微信账号', data: {} })
    expect(await count(db(), sql`select count(*) n from member_merges where absorbed_id = ${w.id}`)).toBe(0)
  })

  it('a double tap with the same code merges once: one 200, the other refused, points counted once', async () => {
    const { phone } = await signIn(t().app)
    const p = await memberIdOf(db(), phone)
    await givePoints(db(), p, 5)
    const w = await wechatMember(db())
    await givePoints(db(), w.id, 7)
    await send(w.token, phone)
    const code = await outboxCode(t().app, phone, 'bind')
    const answers = await Promise.all([bind(w.token, phone, code), bind(w.token, phone, code)])
    const codes = answers.map((r) => r.json<Body>().code).sort()
    expect(codes[0]).toBe(200)
    expect(codes[1]).not.toBe(200)
    expect(await count(db(), sql`select balance n from point_balances where member_id = ${p}`)).toBe(12)
    expect(await count(db(), sql`select count(*) n from member_merges where absorbed_id = ${w.id}`)).toBe(1)
  })
})

describe('merging on real PostgreSQL under concurrency', () => {
  const t = useTestApp()
  const db = () => t().database.db
  const total = async () => count(db(), sql`select coalesce(sum(balance), 0) n from point_balances`)
  const merge = (survivorId: number, absorbedId: number) =>
    db()
      .transaction((tx) => mergeMembers(tx, { survivorId, absorbedId, reason: 'bind_phone', now }))
      .then(
        () => 'ok' as const,
        (e: unknown) => (e instanceof AppError ? e.entry.code : 'crash'),
      )

  it('two WeChat users merging into one phone member at once: exactly one succeeds, nothing is lost', async () => {
    const { phone } = await signIn(t().app)
    const p = await memberIdOf(db(), phone)
    const course1 = await makeCourse(db())
    const course2 = await makeCourse(db())
    const w1 = await wechatMember(db())
    const w2 = await wechatMember(db())
    await givePoints(db(), w1.id, 11)
    await givePoints(db(), w2.id, 13)
    await grantCourse(db(), w1.id, course1)
    await grantCourse(db(), w2.id, course2)
    const before = await total()
    const results = await Promise.all([merge(p, w1.id), merge(p, w2.id)])
    expect(results.filter((r) => r === 'ok')).toHaveLength(1)
    expect(results.filter((r) => r === 433)).toHaveLength(1)
    expect(await total()).toBe(before)
    const winner = results[0] === 'ok' ? w1 : w2
    const loser = winner === w1 ? w2 : w1
    expect(await count(db(), sql`select count(*) n from entitlements where member_id = ${p}`)).toBe(1)
    expect(await count(db(), sql`select count(*) n from entitlements where member_id = ${loser.id}`)).toBe(1)
    expect(
      await count(db(), sql`select count(*) n from members where id = ${p} and wx_openid = ${winner.openid}`),
    ).toBe(1)
  })

  it('one member absorbed into two at once: one merge wins, the other finds it gone', async () => {
    const a = await signIn(t().app)
    const b = await signIn(t().app)
    const pa = await memberIdOf(db(), a.phone)
    const pb = await memberIdOf(db(), b.phone)
    const w = await wechatMember(db())
    await givePoints(db(), w.id, 17)
    const before = await total()
    const results = await Promise.all([merge(pa, w.id), merge(pb, w.id)])
    expect(results.filter((r) => r === 'ok')).toHaveLength(1)
    expect(results.filter((r) => r === 301)).toHaveLength(1)
    expect(await total()).toBe(before)
    expect(await count(db(), sql`select count(*) n from member_merges where absorbed_id = ${w.id}`)).toBe(1)
  })
})
