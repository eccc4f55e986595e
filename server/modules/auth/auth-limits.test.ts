import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { smsCodes } from '#server/db/schema/auth.ts'
import { SmsSendError, type SmsProvider } from '#server/integrations/sms/sms.ts'
import { useTestApp } from '#tests/support/app.ts'
import { beijingDayStart } from '#shared/time.ts'
import { outboxCode, randomIp, randomPhone, testClock } from './testing.ts'

type Body = { code: number; msg: string; data: Record<string, unknown> }

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

describe('SMS code limits', () => {
  const clock = testClock()
  const t = useTestApp({}, { integrations: { now: clock.now } })
  // Ten in the morning, Beijing time, today: every test below stays inside one Shanghai day unless it moves on.
  beforeEach(() => clock.set(new Date(beijingDayStart(new Date()).getTime() + 10 * HOUR)))

  const send = async (phone: string, ip = randomIp()) =>
    (
      await t().app.inject({ method: 'POST', url: '/api/send_code', payload: { phone }, remoteAddress: ip })
    ).json<Body>()
  const loginRes = (phone: string, phone_code: string, ip = '127.0.0.1') =>
    t().app.inject({ method: 'POST', url: '/api/login', payload: { phone, phone_code }, remoteAddress: ip })
  const login = async (phone: string, phone_code: string, ip?: string) =>
    (await loginRes(phone, phone_code, ip)).json<Body>()
  const wrong = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, '0')

  describe('POST /api/send_code', () => {
    it('refuses a second send to a phone within 60 s with 430 and the seconds left', async () => {
      const phone = randomPhone()
      expect((await send(phone)).code).toBe(200)
      clock.advance(15_000)
      expect(await send(phone)).toEqual({ code: 430, msg: '验证码发送太频繁，请 45 秒后再试', data: {} })
      clock.advance(45_000)
      expect((await send(phone)).code).toBe(200)
    })

    it('allows 5 sends to a phone in an hour and refuses the 6th, saying how many minutes to wait', async () => {
      const phone = randomPhone()
      for (let i = 0; i < 5; i++) {
        expect((await send(phone)).code).toBe(200)
        clock.advance(MINUTE)
      }
      expect(await send(phone)).toEqual({ code: 430, msg: '验证码发送太频繁，请 55 分钟后再试', data: {} })
      clock.advance(55 * MINUTE + 1000)
      expect((await send(phone)).code).toBe(200)
    })

    it('allows 10 sends to a phone from one address in a day; the owner elsewhere still gets codes', async () => {
      const phone = randomPhone()
      const stranger = randomIp()
      for (let i = 0; i < 10; i++) {
        expect((await send(phone, stranger)).code).toBe(200)
        clock.advance(i === 4 ? HOUR : 2 * MINUTE)
      }
      clock.advance(HOUR)
      expect(await send(phone, stranger)).toEqual({
        code: 430,
        msg: '今日验证码发送次数已达上限，请明天再试',
        data: {},
      })
      // Another address (the phone's owner at home) is not locked out by what the stranger did.
      expect((await send(phone, randomIp())).code).toBe(200)
      clock.set(new Date(beijingDayStart(clock.now()).getTime() + DAY + MINUTE))
      expect((await send(phone, stranger)).code).toBe(200)
    })

    it('allows 30 sends to a phone in a day from every address together, then none until the next day', async () => {
      const phone = randomPhone()
      for (let i = 0; i < 30; i++) {
        expect((await send(phone)).code).toBe(200)
        clock.advance(i % 5 === 4 ? HOUR : 2 * MINUTE)
      }
      clock.advance(HOUR)
      expect(await send(phone)).toEqual({
        code: 430,
        msg: '该手机号今日验证码发送次数已达上限，请使用微信登录或明天再试',
        data: {},
      })
      clock.set(new Date(beijingDayStart(clock.now()).getTime() + DAY + MINUTE))
      expect((await send(phone)).code).toBe(200)
    })

    it('allows 20 sends an hour from one IP and refuses the 21st', async () => {
      const ip = randomIp()
      for (let i = 0; i < 20; i++) expect((await send(randomPhone(), ip)).code).toBe(200)
      expect(await send(randomPhone(), ip)).toEqual({
        code: 430,
        msg: '当前网络获取验证码太频繁，请 60 分钟后再试',
        data: {},
      })
      expect((await send(randomPhone())).code).toBe(200)
      clock.advance(HOUR)
      expect((await send(randomPhone(), ip)).code).toBe(200)
    })

    it('lets only one of 5 concurrent sends to a phone through', async () => {
      const phone = randomPhone()
      const answers = await Promise.all(Array.from({ length: 5 }, () => send(phone)))
      expect(answers.filter((a) => a.code === 200)).toHaveLength(1)
      expect(answers.filter((a) => a.code === 430)).toHaveLength(4)
      expect(await t().database.db.select().from(smsCodes).where(eq(smsCodes.phone, phone))).toHaveLength(1)
    })

    it('lets exactly 20 of 25 concurrent sends from one IP through', async () => {
      const ip = randomIp()
      const answers = await Promise.all(Array.from({ length: 25 }, () => send(randomPhone(), ip)))
      expect(answers.filter((a) => a.code === 200)).toHaveLength(20)
      expect(answers.filter((a) => a.code === 430)).toHaveLength(5)
    })
  })

  describe('POST /api/login', () => {
    it('accepts a code until its fifth minute and refuses it from then on with 406', async () => {
      const a = randomPhone()
      const b = randomPhone()
      await send(a)
      await send(b)
      clock.advance(5 * MINUTE - 1000)
      expect((await login(a, await outboxCode(t().app, a))).code).toBe(200)
      clock.advance(1000)
      expect(await login(b, await outboxCode(t().app, b))).toEqual({
        code: 406,
        msg: '验证码已失效，请重新获取',
        data: {},
      })
    })

    it('replaces the previous code on a resend', async () => {
      const phone = randomPhone()
      await send(phone)
      const first = await outboxCode(t().app, phone)
      let second = first
      while (second === first) {
        clock.advance(MINUTE)
        expect((await send(phone)).code).toBe(200)
        second = await outboxCode(t().app, phone)
      }
      expect((await login(phone, first)).code).toBe(405)
      expect((await login(phone, second)).code).toBe(200)
    })

    it('never locks a phone for the day: a stranger’s two codes and ten wrong tries leave the owner signing in', async () => {
      const phone = randomPhone()
      // What locked a phone until midnight before: two code requests and ten wrong codes.
      for (const stranger of [randomIp(), randomIp()]) {
        expect((await send(phone, stranger)).code).toBe(200)
        const code = await outboxCode(t().app, phone)
        for (let i = 0; i < 5; i++) expect((await login(phone, wrong(code), stranger)).code).toBe(405)
        clock.advance(MINUTE)
      }
      const owner = randomIp()
      expect((await send(phone, owner)).code).toBe(200)
      expect((await login(phone, await outboxCode(t().app, phone), owner)).code).toBe(200)
    })

    it('slows wrong tries from one phone and address down with a doubling wait, 429 with Retry-After', async () => {
      const phone = randomPhone()
      const ip = randomIp()
      expect((await send(phone, ip)).code).toBe(200)
      const first = await outboxCode(t().app, phone)
      for (let i = 0; i < 5; i++) expect((await login(phone, wrong(first), ip)).code).toBe(405)
      // The code died at the fifth (a try on it says so); 30 s to wait, then a new code; each failure doubles the wait.
      expect((await login(phone, first, ip)).code).toBe(406)
      clock.advance(MINUTE)
      expect((await send(phone, ip)).code).toBe(200)
      const code = await outboxCode(t().app, phone)
      expect((await login(phone, wrong(code), ip)).code).toBe(405)
      for (const wait of [60, 120]) {
        clock.advance(wait * 1000 - 2000)
        const res = await loginRes(phone, code, ip)
        expect(res.statusCode).toBe(429)
        expect(res.headers['retry-after']).toBe('2')
        expect(res.json<Body>()).toEqual({ code: 429, msg: '验证码错误次数较多，请 2 秒后再试', data: {} })
        clock.advance(2000)
        if (wait < 120) expect((await login(phone, wrong(code), ip)).code).toBe(405)
        else expect((await login(phone, code, ip)).code).toBe(200)
      }
    })

    it('lets the owner in from another address while a stranger is slowed down, the phone alone waiting under a minute', async () => {
      const phone = randomPhone()
      for (let n = 0; n < 2; n++) {
        const stranger = randomIp()
        expect((await send(phone, stranger)).code).toBe(200)
        const code = await outboxCode(t().app, phone)
        for (let i = 0; i < 5; i++) expect((await login(phone, wrong(code), stranger)).code).toBe(405)
        clock.advance(2 * MINUTE)
      }
      // Ten failures on the phone from elsewhere: the owner waits 5 s after the last one, never more than a minute.
      const owner = randomIp()
      expect((await send(phone, owner)).code).toBe(200)
      const code = await outboxCode(t().app, phone)
      const res = await loginRes(phone, code, owner)
      expect(res.statusCode).toBe(200)
      expect(res.json<Body>().code).toBe(200)
    })

    it('slows an address down that tries wrong codes on many phones', async () => {
      const ip = randomIp()
      for (let i = 0; i < 30; i++) {
        const phone = randomPhone()
        expect((await send(phone, randomIp())).code).toBe(200)
        expect((await login(phone, wrong(await outboxCode(t().app, phone)), ip)).code).toBe(405)
      }
      const phone = randomPhone()
      expect((await send(phone, randomIp())).code).toBe(200)
      const res = await loginRes(phone, await outboxCode(t().app, phone), ip)
      expect(res.statusCode).toBe(429)
      expect(res.headers['retry-after']).toBe('30')
      clock.advance(30_000)
      expect((await login(phone, await outboxCode(t().app, phone), ip)).code).toBe(200)
    })

    it('counts at most five tries on one code, however many wrong guesses arrive at once', async () => {
      const phone = randomPhone()
      expect((await send(phone)).code).toBe(200)
      const code = await outboxCode(t().app, phone)
      const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + 1 + i) % 10_000).padStart(4, '0'))
      const answers = await Promise.all(guesses.map((g) => login(phone, g, randomIp())))
      expect(answers.filter((a) => a.code === 405)).toHaveLength(5)
      expect(answers.filter((a) => a.code === 406)).toHaveLength(7)
      const [row] = await t().database.db.select().from(smsCodes).where(eq(smsCodes.phone, phone))
      expect(row).toMatchObject({ attempts: 5 })
      expect(row!.consumedAt).not.toBeNull()
      // The right code is useless now: a new one is needed.
      expect((await login(phone, code)).code).toBe(406)
    })
  })
})

describe('sign-in limits per address (the shared rate limit)', () => {
  const t = useTestApp({ RATE_LIMIT: 'true' })

  it('limits /api/login and /api/send_code per address with 429, a Chinese message and Retry-After', async () => {
    const ip = randomIp()
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { phone: randomPhone(), phone_code: '0000' },
        remoteAddress: ip,
      })
      statuses.push(res.statusCode)
      if (res.statusCode === 429) {
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
        expect(res.json<Body>().msg).toMatch(/^操作太频繁，请 \d+ 秒后再试$/)
      }
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true)
    expect(statuses[10]).toBe(429)
    const sends = []
    for (let i = 0; i < 6; i++)
      sends.push(
        (
          await t().app.inject({
            method: 'POST',
            url: '/api/send_code',
            payload: { phone: randomPhone() },
            remoteAddress: ip,
          })
        ).statusCode,
      )
    expect(sends).toEqual([200, 200, 200, 200, 200, 429])
  })
})

describe('SMS provider failure', () => {
  const sms: SmsProvider = {
    name: 'failing',
    async send() {
      throw new SmsSendError('failing', 'isv.BUSINESS_LIMIT_CONTROL')
    },
  }
  const t = useTestApp({}, { integrations: { sms } })

  it('answers 432 and kills the code', async () => {
    const phone = randomPhone()
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/send_code',
      payload: { phone },
      remoteAddress: randomIp(),
    })
    expect(res.json()).toEqual({ code: 432, msg: '短信发送失败，请稍后重试', data: {} })
    const rows = await t().database.db.select().from(smsCodes).where(eq(smsCodes.phone, phone))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.consumedAt).not.toBeNull()
  })
})

describe('SMS_PER_IP_PER_HOUR', () => {
  const t = useTestApp({ SMS_PER_IP_PER_HOUR: '3' })

  it('sets how many codes one address may ask for in an hour', async () => {
    const send = async (ip: string) =>
      (
        await t().app.inject({
          method: 'POST',
          url: '/api/send_code',
          payload: { phone: randomPhone() },
          remoteAddress: ip,
        })
      ).json<Body>()
    const ip = randomIp()
    for (let i = 0; i < 3; i++) expect((await send(ip)).code).toBe(200)
    expect((await send(ip)).code).toBe(430)
  })
})
