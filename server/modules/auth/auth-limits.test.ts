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
  const login = async (phone: string, phone_code: string) =>
    (await t().app.inject({ method: 'POST', url: '/api/login', payload: { phone, phone_code } })).json<Body>()
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

    it('allows 10 sends to a phone in a day, then none until the next day', async () => {
      const phone = randomPhone()
      for (let i = 0; i < 10; i++) {
        expect((await send(phone)).code).toBe(200)
        clock.advance(i === 4 ? HOUR : 2 * MINUTE)
      }
      clock.advance(HOUR)
      expect(await send(phone)).toEqual({ code: 430, msg: '今日验证码发送次数已达上限，请明天再试', data: {} })
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

    it('locks code login for the rest of the day after 10 failures, and opens it the next day', async () => {
      const phone = randomPhone()
      // Code A: five wrong tries kill it. Code B: four. Code C: one, and it is still live when the lock falls.
      await send(phone)
      const a = await outboxCode(t().app, phone)
      for (let i = 0; i < 5; i++) expect((await login(phone, wrong(a))).code).toBe(405)
      clock.advance(MINUTE)
      await send(phone)
      const b = await outboxCode(t().app, phone)
      for (let i = 0; i < 4; i++) expect((await login(phone, wrong(b))).code).toBe(405)
      clock.advance(MINUTE)
      await send(phone)
      const c = await outboxCode(t().app, phone)
      expect((await login(phone, wrong(c))).code).toBe(405)

      const locked = { code: 431, msg: '今日验证码登录失败次数过多，请明天再试或使用微信登录', data: {} }
      expect(await login(phone, c)).toEqual(locked)
      clock.advance(MINUTE)
      expect(await send(phone)).toEqual(locked)
      // Another phone is not affected.
      const other = randomPhone()
      await send(other)
      expect((await login(other, await outboxCode(t().app, other))).code).toBe(200)

      clock.set(new Date(beijingDayStart(clock.now()).getTime() + DAY + MINUTE))
      expect((await send(phone)).code).toBe(200)
      expect((await login(phone, await outboxCode(t().app, phone))).code).toBe(200)
    })
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
