import crypto from 'node:crypto'
import type { FastifyInstance } from 'fastify'

/** A phone number nobody else in the test file uses. */
export function randomPhone() {
  return `13${crypto.randomInt(0, 1e9).toString().padStart(9, '0')}`
}

/** An IP address of its own, so one test's sends never count towards another's IP limit. */
export function randomIp() {
  return `10.${crypto.randomInt(0, 256)}.${crypto.randomInt(0, 256)}.${crypto.randomInt(1, 255)}`
}

/** The newest code the development outbox holds for a phone. */
export async function outboxCode(
  app: FastifyInstance,
  phone: string,
  purpose: 'login' | 'bind' | 'step_up' | 'account' | 'contract' = 'login',
) {
  const res = await app.inject({ method: 'GET', url: `/api/dev/outbox?phone=${phone}` })
  const list = res.json<{ data: { list: { code: string; purpose: string }[] } }>().data.list
  const message = list.find((m) => m.purpose === purpose)
  if (!message) throw new Error(`no ${purpose} code in the outbox for ${phone}`)
  return message.code
}

/**
 * Signs a phone in through the real endpoints (send_code, the outbox, login) and returns the token. Tests of
 * other domains can use it to get a member.
 */
export async function signIn(app: FastifyInstance, phone = randomPhone(), ip = randomIp()) {
  const sent = await app.inject({ method: 'POST', url: '/api/send_code', payload: { phone }, remoteAddress: ip })
  if (sent.json<{ code: number }>().code !== 200) throw new Error(`send_code failed: ${sent.body}`)
  const code = await outboxCode(app, phone)
  const res = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { phone, phone_code: code, platform: 2 },
    remoteAddress: ip,
  })
  const body = res.json<{ code: number; data: { token: string } }>()
  if (body.code !== 200) throw new Error(`login failed: ${res.body}`)
  return { token: body.data.token, phone }
}

/**
 * The app clock for tests (`useTestApp({}, { integrations: { now: clock.now } })`): real time plus an offset
 * that `advance` moves, or a fixed instant after `set`.
 */
export function testClock() {
  let offset = 0
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms: number) {
      offset += ms
    },
    set(at: Date) {
      offset = at.getTime() - Date.now()
    },
    reset() {
      offset = 0
    },
  }
}
