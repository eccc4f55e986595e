import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { members } from '#server/db/schema/members.ts'
import { issueSession } from '#server/modules/sessions/session.service.ts'
import { useTestApp } from '#tests/support/app.ts'
import { outboxCode, randomIp, randomPhone, signIn, testClock } from './testing.ts'

type Body<T = Record<string, unknown>> = { code: number; msg: string; data: T }

describe('POST /api/bind_phone_send_code and /api/bind_phone', () => {
  const clock = testClock()
  const t = useTestApp({}, { integrations: { now: clock.now } })

  /** A member who came in through WeChat: no phone yet. */
  async function wechatMember() {
    const [row] = await t()
      .database.db.insert(members)
      .values({ nickname: '微信用户', wxOpenid: `o_${randomPhone()}` })
      .returning({ id: members.id })
    const { token } = await issueSession(t().database.db, row!.id, 3, new Date())
    return { id: row!.id, token }
  }
  const sendBind = (token: string | undefined, payload: Record<string, unknown>) =>
    t().app.inject({
      method: 'POST',
      url: '/api/bind_phone_send_code',
      headers: token ? { 'zxb-token': token } : {},
      payload,
      remoteAddress: randomIp(),
    })
  const bind = (token: string | undefined, payload: Record<string, unknown>) =>
    t().app.inject({ method: 'POST', url: '/api/bind_phone', headers: token ? { 'zxb-token': token } : {}, payload })

  it('binds a phone to a WeChat member, who can then log in with it', async () => {
    const member = await wechatMember()
    const phone = randomPhone()
    expect((await sendBind(member.token, { phone })).json()).toEqual({
      code: 200,
      msg: '已发送验证码',
      data: { merge: false },
    })
    const res = await bind(member.token, { phone, phone_code: await outboxCode(t().app, phone, 'bind') })
    const body = res.json<Body<{ member_id: number; phone: string; has_phone: boolean; wechat_bound: boolean }>>()
    expect(body.code).toBe(200)
    expect(body.data).toMatchObject({
      member_id: member.id,
      phone: `${phone.slice(0, 3)}****${phone.slice(-4)}`,
      has_phone: true,
      wechat_bound: true,
    })

    clock.advance(61_000)
    const { token } = await signIn(t().app, phone)
    const me = await t().app.inject({ method: 'GET', url: '/api/userinfo', headers: { 'zxb-token': token } })
    expect(me.json<Body<{ member_id: number }>>().data.member_id).toBe(member.id)
  })

  it('refuses a phone whose member cannot be merged (another WeChat user) with 433, when sending and binding', async () => {
    const { phone: taken } = await signIn(t().app)
    await t()
      .database.db.update(members)
      .set({ wxOpenid: `o_x_${taken}` })
      .where(eq(members.phone, taken))
    const member = await wechatMember()
    expect((await sendBind(member.token, { phone: taken })).json()).toEqual({
      code: 433,
      msg: '该手机号已绑定其他微信账号',
      data: {},
    })
    expect((await bind(member.token, { phone: taken, phone_code: '1234' })).json<Body>().code).toBe(433)
  })

  it('refuses a code that another member asked for (405)', async () => {
    const a = await wechatMember()
    const b = await wechatMember()
    const phone = randomPhone()
    await sendBind(a.token, { phone })
    const code = await outboxCode(t().app, phone, 'bind')
    expect((await bind(b.token, { phone, phone_code: code })).json<Body>().code).toBe(405)
    expect((await bind(a.token, { phone, phone_code: code })).json<Body>().code).toBe(200)
  })

  it('keeps login codes and bind codes apart', async () => {
    const member = await wechatMember()
    const phone = randomPhone()
    await t().app.inject({ method: 'POST', url: '/api/send_code', payload: { phone }, remoteAddress: randomIp() })
    const loginCode = await outboxCode(t().app, phone, 'login')
    expect((await bind(member.token, { phone, phone_code: loginCode })).json<Body>().code).toBe(406)
  })

  it('applies the code rules: wrong 405, used 406, dead after 5 tries', async () => {
    const member = await wechatMember()
    const phone = randomPhone()
    await sendBind(member.token, { phone })
    const code = await outboxCode(t().app, phone, 'bind')
    const wrong = String((Number(code) + 1) % 10_000).padStart(4, '0')
    for (let i = 0; i < 5; i++)
      expect((await bind(member.token, { phone, phone_code: wrong })).json<Body>().code).toBe(405)
    expect((await bind(member.token, { phone, phone_code: code })).json<Body>().code).toBe(406)
  })

  it('applies the send limits (60 s)', async () => {
    const member = await wechatMember()
    const phone = randomPhone()
    expect((await sendBind(member.token, { phone })).json<Body>().code).toBe(200)
    expect((await sendBind(member.token, { phone })).json<Body>().code).toBe(430)
  })

  it('says so when the phone is already the member’s own', async () => {
    const { phone, token } = await signIn(t().app)
    expect((await sendBind(token, { phone })).json()).toEqual({ code: 409, msg: '你已绑定该手机号', data: {} })
  })

  it('needs a signed-in member (301)', async () => {
    expect((await sendBind(undefined, { phone: randomPhone() })).json<Body>().code).toBe(301)
    expect((await bind(undefined, { phone: randomPhone(), phone_code: '1234' })).json<Body>().code).toBe(301)
  })

  it('rejects a malformed phone with 401 and a missing one with 400', async () => {
    const member = await wechatMember()
    expect((await sendBind(member.token, { phone: '1234' })).json<Body>().code).toBe(401)
    const res = await bind(member.token, { phone_code: '1234' })
    expect(res.statusCode).toBe(400)
    expect(res.json<Body>().msg).toContain('')
  })

  it('leaves the member without a phone when the code is wrong', async () => {
    const member = await wechatMember()
    const phone = randomPhone()
    await sendBind(member.token, { phone })
    await bind(member.token, { phone, phone_code: 'abcd' })
    const [row] = await t().database.db.select().from(members).where(eq(members.id, member.id))
    expect(row!.phone).toBeNull()
  })
})
