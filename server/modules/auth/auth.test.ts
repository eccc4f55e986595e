import crypto from 'node:crypto'
import { Writable } from 'node:stream'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { DEV_SMS_CODE_PEPPER, loadConfig } from '#server/config.ts'
import { smsCodes } from '#server/db/schema/auth.ts'
import { members } from '#server/db/schema/members.ts'
import { sessions } from '#server/db/schema/sessions.ts'
import { loggerOptions } from '#server/app.ts'
import { useTestApp } from '#tests/support/app.ts'
import { SESSION_TTL_SECONDS } from '#server/modules/sessions/session.service.ts'
import { outboxCode, randomIp, randomPhone, signIn, testClock } from './testing.ts'

type Body<T = Record<string, unknown>> = { code: number; msg: string; data: T }

describe('POST /api/send_code', () => {
  const clock = testClock()
  const t = useTestApp({}, { integrations: { now: clock.now } })
  const send = (payload: unknown, ip = randomIp()) =>
    t().app.inject({
      method: 'POST',
      url: '/api/send_code',
      payload: payload as Record<string, unknown>,
      remoteAddress: ip,
    })

  it('sends a 4-digit code and says so', async () => {
    const phone = randomPhone()
    const res = await send({ phone })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ code: 200, msg: '已发送验证码', data: {} })
    expect(await outboxCode(t().app, phone)).toMatch(/^\d{4}$/)
  })

  it('trims the phone before checking it', async () => {
    const phone = randomPhone()
    const res = await send({ phone: `  ${phone}\t` })
    expect(res.json<Body>().code).toBe(200)
    expect(await outboxCode(t().app, phone)).toMatch(/^\d{4}$/)
  })

  it.each(['12345678901', '1380013800', '138001380000', '2380013800a', '138 0013 8000', '', '+8613800138000'])(
    'rejects the malformed phone %j with 401',
    async (phone) => {
      const res = await send({ phone })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ code: 401, msg: '手机号格式错误', data: {} })
    },
  )

  it('rejects a missing phone with 400 naming the field', async () => {
    const res = await send({})
    expect(res.statusCode).toBe(400)
    expect(res.json<Body>()).toMatchObject({ code: 400, msg: expect.stringContaining('手机号') as string })
    expect(res.json<Body>().msg).toContain('')
  })

  it('rejects a phone sent as a number with 400 naming the field', async () => {
    const res = await send({ phone: 13800138000 })
    expect(res.statusCode).toBe(400)
    expect(res.json<Body>().msg).toBe('手机号格式不正确')
  })

  it('rejects a body that is not JSON with 400', async () => {
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/send_code',
      headers: { 'content-type': 'application/json' },
      payload: '{"phone":',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json<Body>().code).toBe(400)
  })

  it('rejects an oversized body with 413', async () => {
    const res = await send({ phone: randomPhone(), padding: 'x'.repeat(1_100_000) })
    expect(res.statusCode).toBe(413)
    expect(res.json()).toEqual({ code: 413, msg: '提交的内容过大', data: {} })
  })

  it('answers the same for a registered and an unregistered phone', async () => {
    const { phone: registered } = await signIn(t().app)
    clock.advance(61_000)
    const a = await send({ phone: registered })
    const b = await send({ phone: randomPhone() })
    expect(a.json<Body>()).toEqual(b.json<Body>())
  })

  it('stores the code only as a hash', async () => {
    const phone = randomPhone()
    await send({ phone })
    const code = await outboxCode(t().app, phone)
    const rows = await t().database.db.select().from(smsCodes).where(eq(smsCodes.phone, phone))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.codeHash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(rows)).not.toContain(`"${code}"`)
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(5 * 60_000)
  })

  it('stores an HMAC keyed with the pepper, not the plain SHA-256 of the code, and the code still logs in', async () => {
    const phone = randomPhone()
    await send({ phone })
    const code = await outboxCode(t().app, phone)
    const [row] = await t().database.db.select().from(smsCodes).where(eq(smsCodes.phone, phone))
    expect(row!.codeHash).not.toBe(crypto.createHash('sha256').update(`login:${phone}:${code}`).digest('hex'))
    expect(row!.codeHash).toBe(
      crypto.createHmac('sha256', DEV_SMS_CODE_PEPPER).update(`login:${phone}:${code}`).digest('hex'),
    )
    const login = await t().app.inject({ method: 'POST', url: '/api/login', payload: { phone, phone_code: code } })
    expect(login.json<Body>().code).toBe(200)
  })
})

describe('SMS_CODE_PEPPER', () => {
  const pepper = 'an-operator-pepper-of-at-least-32-characters'
  const t = useTestApp({ SMS_CODE_PEPPER: pepper })

  it('keys the stored hashes, and codes verify with it', async () => {
    const phone = randomPhone()
    await t().app.inject({ method: 'POST', url: '/api/send_code', payload: { phone }, remoteAddress: randomIp() })
    const code = await outboxCode(t().app, phone)
    const [row] = await t().database.db.select().from(smsCodes).where(eq(smsCodes.phone, phone))
    expect(row!.codeHash).toBe(crypto.createHmac('sha256', pepper).update(`login:${phone}:${code}`).digest('hex'))
    expect(row!.codeHash).not.toBe(
      crypto.createHmac('sha256', DEV_SMS_CODE_PEPPER).update(`login:${phone}:${code}`).digest('hex'),
    )
    const login = await t().app.inject({ method: 'POST', url: '/api/login', payload: { phone, phone_code: code } })
    expect(login.json<Body>().code).toBe(200)
  })

  it('refuses a code hashed with another pepper (or none): 405, and it counts as a wrong try', async () => {
    const phone = randomPhone()
    await t().app.inject({ method: 'POST', url: '/api/send_code', payload: { phone }, remoteAddress: randomIp() })
    const code = await outboxCode(t().app, phone)
    // What an old server (no pepper) would have stored for this very code.
    await t()
      .database.db.update(smsCodes)
      .set({ codeHash: crypto.createHash('sha256').update(`login:${phone}:${code}`).digest('hex') })
      .where(eq(smsCodes.phone, phone))
    const login = await t().app.inject({ method: 'POST', url: '/api/login', payload: { phone, phone_code: code } })
    expect(login.json()).toEqual({ code: 405, msg: '验证码错误', data: {} })
    const [row] = await t().database.db.select().from(smsCodes).where(eq(smsCodes.phone, phone))
    expect(row!.attempts).toBe(1)
  })
})

describe('POST /api/login', () => {
  const clock = testClock()
  const t = useTestApp({}, { integrations: { now: clock.now } })
  const sendCode = (phone: string, ip = randomIp()) =>
    t().app.inject({ method: 'POST', url: '/api/send_code', payload: { phone }, remoteAddress: ip })
  const login = (payload: Record<string, unknown>) => t().app.inject({ method: 'POST', url: '/api/login', payload })
  const wrongCode = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, '0')

  it('logs a new phone in, creating the member with a default nickname', async () => {
    const phone = '13800138000'
    await sendCode(phone)
    const res = await login({ phone, phone_code: await outboxCode(t().app, phone), platform: 3, ke2: 0 })
    const body = res.json<Body<{ token: string; expire_in: number }>>()
    expect(body.code).toBe(200)
    expect(body.data.expire_in).toBe(SESSION_TTL_SECONDS)
    expect(body.data.token).toMatch(/^[\w-]{43}$/)
    const [member] = await t().database.db.select().from(members).where(eq(members.phone, phone))
    expect(member).toMatchObject({ nickname: '学员8000' })
    const [session] = await t().database.db.select().from(sessions).where(eq(sessions.memberId, member!.id))
    expect(session!.platform).toBe(3)
    expect(session!.tokenHash).not.toBe(body.data.token)

    const me = await t().app.inject({ method: 'GET', url: '/api/userinfo', headers: { 'zxb-token': body.data.token } })
    expect(me.json<Body<{ member_id: number; phone: string }>>().data).toMatchObject({
      member_id: member!.id,
      phone: '138****8000',
      role: 'member',
    })
  })

  it('gives a new token at every login, for the same member', async () => {
    const phone = randomPhone()
    const first = await signIn(t().app, phone)
    clock.advance(61_000)
    const second = await signIn(t().app, phone)
    expect(second.token).not.toBe(first.token)
    const ids = await Promise.all(
      [first.token, second.token].map(async (token) => {
        const res = await t().app.inject({ method: 'GET', url: '/api/userinfo', headers: { 'zxb-token': token } })
        return res.json<Body<{ member_id: number }>>().data.member_id
      }),
    )
    expect(ids[0]).toBe(ids[1])
    expect(await t().database.db.select().from(members).where(eq(members.phone, phone))).toHaveLength(1)
  })

  it('rejects a wrong code with 405', async () => {
    const phone = randomPhone()
    await sendCode(phone)
    const res = await login({ phone, phone_code: wrongCode(await outboxCode(t().app, phone)) })
    expect(res.json()).toEqual({ code: 405, msg: '验证码错误', data: {} })
  })

  it('rejects a code for a phone that was sent none with 406', async () => {
    const res = await login({ phone: randomPhone(), phone_code: '1234' })
    expect(res.json()).toEqual({ code: 406, msg: '验证码已失效，请重新获取', data: {} })
  })

  it('accepts a code only once (406 the second time)', async () => {
    const phone = randomPhone()
    await sendCode(phone)
    const phone_code = await outboxCode(t().app, phone)
    expect((await login({ phone, phone_code })).json<Body>().code).toBe(200)
    expect((await login({ phone, phone_code })).json<Body>().code).toBe(406)
  })

  it('trims phone and code', async () => {
    const phone = randomPhone()
    await sendCode(phone)
    const res = await login({ phone: ` ${phone} `, phone_code: ` ${await outboxCode(t().app, phone)} ` })
    expect(res.json<Body>().code).toBe(200)
  })

  it('kills a code after 5 wrong tries, the fifth saying so', async () => {
    const phone = randomPhone()
    await sendCode(phone)
    const code = await outboxCode(t().app, phone)
    const answers = []
    for (let i = 0; i < 5; i++) answers.push((await login({ phone, phone_code: wrongCode(code) })).json<Body>())
    expect(answers.map((a) => a.code)).toEqual([405, 405, 405, 405, 405])
    expect(answers[4]!.msg).toBe('验证码错误次数过多，已失效，请重新获取')
    expect((await login({ phone, phone_code: code })).json<Body>().code).toBe(406)
  })

  it('rejects an empty code with 405 asking for it', async () => {
    const res = await login({ phone: randomPhone(), phone_code: '  ' })
    expect(res.json()).toEqual({ code: 405, msg: '请输入验证码', data: {} })
  })

  it('rejects a missing code with 400 naming the field', async () => {
    const res = await login({ phone: randomPhone() })
    expect(res.statusCode).toBe(400)
    expect(res.json<Body>().msg).toBe('请填写验证码')
  })

  it('rejects a code sent as a number with 400', async () => {
    const res = await login({ phone: randomPhone(), phone_code: 1234 })
    expect(res.statusCode).toBe(400)
    expect(res.json<Body>().msg).toBe('验证码格式不正确')
  })

  it('rejects a malformed phone with 401 before looking at the code', async () => {
    const res = await login({ phone: '1380013800', phone_code: '1234' })
    expect(res.json<Body>().code).toBe(401)
  })

  it('lets exactly one of 20 concurrent logins with the same code succeed', async () => {
    const phone = randomPhone()
    await sendCode(phone)
    const phone_code = await outboxCode(t().app, phone)
    const results = await Promise.all(Array.from({ length: 20 }, () => login({ phone, phone_code })))
    const codes = results.map((r) => r.json<Body>().code)
    expect(codes.filter((c) => c === 200)).toHaveLength(1)
    expect(codes.filter((c) => c === 406)).toHaveLength(19)
    expect(await t().database.db.select().from(members).where(eq(members.phone, phone))).toHaveLength(1)
  })
})

describe('forced purchaser mode (ke2)', () => {
  const t = useTestApp()
  const purchaser = '13900000001'
  const nonPurchaser = '13900000002'
  const send = (phone: string, ke2: unknown) =>
    t().app.inject({ method: 'POST', url: '/api/send_code', payload: { phone, ke2 }, remoteAddress: randomIp() })
  const login = (phone: string, phone_code: string, ke2: unknown) =>
    t().app.inject({ method: 'POST', url: '/api/login', payload: { phone, phone_code, ke2 } })

  it('logs a purchaser in', async () => {
    await t()
      .database.db.insert(members)
      .values([
        { phone: purchaser, nickname: '老学员', isPurchaser: true },
        { phone: nonPurchaser, nickname: '普通学员' },
      ])
    expect((await send(purchaser, 1)).json<Body>().code).toBe(200)
    const res = await login(purchaser, await outboxCode(t().app, purchaser), true)
    expect(res.json<Body>().code).toBe(200)
  })

  it.each([[1], [true], ['1'], ['true']])('refuses a member without a purchase with 402 (ke2 = %j)', async (ke2) => {
    const res = await send(nonPurchaser, ke2)
    expect(res.json()).toEqual({ code: 402, msg: '该手机号没有购买记录，请使用购买课程时用的手机号', data: {} })
  })

  it('refuses an unknown phone with 402', async () => {
    expect((await send(randomPhone(), 1)).json<Body>().code).toBe(402)
  })

  it('refuses the login of a non-purchaser with 402 even with a valid code, and keeps the code', async () => {
    const phone = randomPhone()
    await send(phone, 0)
    const code = await outboxCode(t().app, phone)
    expect((await login(phone, code, 1)).json<Body>().code).toBe(402)
    expect((await login(phone, code, 0)).json<Body>().code).toBe(200)
  })

  it('rejects a ke2 of the wrong type with 400', async () => {
    const res = await send(purchaser, 'yes')
    expect(res.statusCode).toBe(400)
    expect(res.json<{ data: unknown }>().data).toEqual({ field: 'ke2' })
  })
})

describe('POST /api/logout and the token', () => {
  const clock = testClock()
  const t = useTestApp({}, { integrations: { now: clock.now } })
  const me = (token?: string) =>
    t().app.inject({ method: 'GET', url: '/api/userinfo', headers: token ? { 'zxb-token': token } : {} })

  it('revokes the token: it then answers 301', async () => {
    const { token } = await signIn(t().app)
    expect((await me(token)).json<Body>().code).toBe(200)
    const res = await t().app.inject({ method: 'POST', url: '/api/logout', headers: { 'zxb-token': token } })
    expect(res.json()).toEqual({ code: 200, msg: 'ok', data: {} })
    expect((await me(token)).json()).toEqual({ code: 301, msg: '请先登录', data: {} })
    const again = await t().app.inject({ method: 'POST', url: '/api/logout', headers: { 'zxb-token': token } })
    expect(again.json<Body>().code).toBe(301)
  })

  it('leaves the member’s other sessions working', async () => {
    const phone = randomPhone()
    const a = await signIn(t().app, phone)
    clock.advance(61_000)
    const b = await signIn(t().app, phone)
    await t().app.inject({ method: 'POST', url: '/api/logout', headers: { 'zxb-token': a.token } })
    expect((await me(b.token)).json<Body>().code).toBe(200)
  })

  it('answers 301 without a token', async () => {
    expect((await me()).json<Body>().code).toBe(301)
    expect((await t().app.inject({ method: 'POST', url: '/api/logout' })).json<Body>().code).toBe(301)
  })

  it('answers 301 for an unknown token', async () => {
    expect((await me('x'.repeat(43))).json<Body>().code).toBe(301)
  })

  it('answers 504 for an expired token', async () => {
    const { token, phone } = await signIn(t().app)
    const [member] = await t().database.db.select().from(members).where(eq(members.phone, phone))
    await t()
      .database.db.update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.memberId, member!.id))
    expect((await me(token)).json()).toEqual({ code: 504, msg: '登录已过期，请重新登录', data: {} })
  })
})

describe('development outbox', () => {
  const t = useTestApp()

  it('lists recent codes on a readable page', async () => {
    const phone = randomPhone()
    await t().app.inject({ method: 'POST', url: '/api/send_code', payload: { phone }, remoteAddress: randomIp() })
    const code = await outboxCode(t().app, phone)
    const res = await t().app.inject({ method: 'GET', url: '/__dev/outbox' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toContain('text/html')
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.body).toContain('<html lang="zh-CN">')
    expect(res.body).toContain('name="viewport"')
    expect(res.body).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg">')
    expect(res.body).toContain(phone)
    expect(res.body).toContain(code)
    expect(res.body).toContain('登录')
  })

  it('filters the JSON list by phone', async () => {
    const a = randomPhone()
    const b = randomPhone()
    for (const phone of [a, b])
      await t().app.inject({ method: 'POST', url: '/api/send_code', payload: { phone }, remoteAddress: randomIp() })
    const res = await t().app.inject({ method: 'GET', url: `/api/dev/outbox?phone=${a}` })
    const list =
      res.json<Body<{ list: { phone: string; code: string; purpose: string; sent_at: string }[] }>>().data.list
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ phone: a, purpose: 'login', code: expect.stringMatching(/^\d{4}$/) as string })
    expect(Date.parse(list[0]!.sent_at)).not.toBeNaN()
  })
})

describe('development outbox when switched off', () => {
  const t = useTestApp({ DEV_OUTBOX: 'false' })

  it('does not exist', async () => {
    expect((await t().app.inject({ method: 'GET', url: '/__dev/outbox' })).statusCode).toBe(404)
    expect((await t().app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(404)
  })
})

describe('logs', () => {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString())
      done()
    },
  })
  const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'debug' })
  const t = useTestApp({}, { logger: { ...(loggerOptions(config) as object), level: 'debug', stream } })

  it('never carry the code, the token or the full phone', async () => {
    const phone = randomPhone()
    const { token } = await signIn(t().app, phone)
    const code = (await t().app.inject({ method: 'GET', url: `/api/dev/outbox?phone=${phone}` })).json<
      Body<{ list: { code: string }[] }>
    >().data.list[0]!.code
    await t().app.inject({ method: 'GET', url: `/api/userinfo?phone=${phone}`, headers: { 'zxb-token': token } })
    const log = lines.join('')
    expect(log).toContain('sms code sent')
    expect(log).toContain(`${phone.slice(0, 3)}****${phone.slice(-4)}`)
    expect(log).not.toContain(phone)
    expect(log).not.toContain(token)
    expect(log).not.toMatch(new RegExp(`"(code|phone_code)":"?${code}`))
  })
})
