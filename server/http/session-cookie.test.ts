import { describe, expect, it } from 'vitest'
import { extendVipMembership } from '#server/modules/access/access.service.ts'
import { resolveToken } from '#server/modules/sessions/session.service.ts'
import { outboxCode, randomIp, randomPhone, signIn } from '#server/modules/auth/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { SESSION_COOKIE } from './session-cookie.ts'

/**
 * The session cookie of server-rendered member pages (docs/decisions/2026-11-26-member-session-cookie.md): set by
 * every sign-in, cleared by logout and by a refused token, established from a bearer token, and never read by /api.
 */
describe('the session cookie', () => {
  const t = useTestApp()
  const ORIGIN = 'http://localhost:3000'

  interface Cookie {
    name: string
    value: string
    maxAge?: number
    httpOnly?: boolean
    sameSite?: string
    path?: string
    secure?: boolean
  }

  function cookieOf(res: { cookies: Cookie[] }) {
    return res.cookies.find((c) => c.name === SESSION_COOKIE)
  }

  async function login(phone: string, ip: string, extra: Record<string, unknown> = {}) {
    await t().app.inject({ method: 'POST', url: '/api/send_code', payload: { phone, ...extra }, remoteAddress: ip })
    const code = await outboxCode(t().app, phone)
    return t().app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { phone, phone_code: code, ...extra },
      remoteAddress: ip,
    })
  }

  it('is set by an SMS sign-in: the token, HttpOnly, SameSite=Lax, path /, as long as the token', async () => {
    const res = await login(randomPhone(), randomIp())
    const { token, expire_in } = res.json<{ data: { token: string; expire_in: number } }>().data
    const cookie = cookieOf(res)
    expect(cookie).toMatchObject({ value: token, httpOnly: true, sameSite: 'Lax', path: '/', maxAge: expire_in })
    // Plain HTTP here (PUBLIC_URL is http://): not Secure, or the browser would drop it.
    expect(cookie?.secure).toBeFalsy()
    // The cookie is a bearer token: no shared cache (a proxy in front) may keep an answer that sets it.
    expect(res.headers['cache-control']).toBe('private, no-store')
  })

  it('is not set by a failed sign-in', async () => {
    const phone = randomPhone()
    const ip = randomIp()
    await t().app.inject({ method: 'POST', url: '/api/send_code', payload: { phone }, remoteAddress: ip })
    const wrong = (await outboxCode(t().app, phone)) === '0000' ? '1111' : '0000'
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { phone, phone_code: wrong },
      remoteAddress: ip,
    })
    expect(res.json<{ code: number }>().code).toBe(405)
    expect(cookieOf(res)).toBeUndefined()
  })

  it('is set by a purchaser (ke2) sign-in too', async () => {
    const phone = randomPhone()
    const first = await signIn(t().app, phone)
    await t().database.pool.query('update members set is_purchaser = true where phone = $1', [phone])
    const res = await login(phone, randomIp(), { ke2: 1 })
    const { token } = res.json<{ code: number; data: { token: string } }>().data
    expect(cookieOf(res)?.value).toBe(token)
    expect(token).not.toBe(first.token)
  })

  it('is cleared by logout, and the cleared token no longer names anyone', async () => {
    const { token } = await signIn(t().app)
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { 'zxb-token': token, cookie: `${SESSION_COOKIE}=${token}` },
    })
    expect(res.json<{ code: number }>().code).toBe(200)
    expect(cookieOf(res)).toMatchObject({ value: '', maxAge: 0, path: '/' })
    expect(res.headers['cache-control']).toBe('private, no-store')
    expect((await resolveToken(t().database.db, token)).principal).toBeNull()
  })

  it('is cleared when the API refuses the token it carries (a session ended elsewhere)', async () => {
    const { token } = await signIn(t().app)
    await t().app.inject({ method: 'POST', url: '/api/logout', headers: { 'zxb-token': token } })
    const res = await t().app.inject({
      method: 'GET',
      url: '/api/userinfo',
      headers: { 'zxb-token': token, cookie: `${SESSION_COOKIE}=${token}` },
    })
    expect(res.json<{ code: number }>().code).toBe(301)
    expect(cookieOf(res)).toMatchObject({ value: '', maxAge: 0 })
  })

  it('is never authentication for /api: a write with only the cookie is refused and changes nothing', async () => {
    const { token } = await signIn(t().app)
    const before = await t().app.inject({ method: 'GET', url: '/api/userinfo', headers: { 'zxb-token': token } })
    const nickname = before.json<{ data: { nickname: string } }>().data.nickname
    // Same-origin, so the CSRF guard lets it through: it is the API that does not take the cookie.
    const write = await t().app.inject({
      method: 'POST',
      url: '/api/center/updateMemberInfo',
      headers: { cookie: `${SESSION_COOKIE}=${token}`, origin: ORIGIN },
      payload: { nickname: '只有饼干' },
    })
    expect(write.json<{ code: number }>().code).toBe(301)
    const read = await t().app.inject({
      method: 'GET',
      url: '/api/userinfo',
      headers: { cookie: `${SESSION_COOKIE}=${token}` },
    })
    expect(read.json<{ code: number }>().code).toBe(301)
    const after = await t().app.inject({ method: 'GET', url: '/api/userinfo', headers: { 'zxb-token': token } })
    expect(after.json<{ data: { nickname: string } }>().data.nickname).toBe(nickname)
  })

  it('is set on the next API call of a browser signed in before it existed, once, and cleared on request', async () => {
    const { token } = await signIn(t().app)
    const call = (cookie?: string) =>
      t().app.inject({
        method: 'GET',
        url: '/api/userinfo',
        headers: { 'zxb-token': token, ...(cookie && { cookie: `${SESSION_COOKIE}=${cookie}` }) },
      })
    const set = await call()
    expect(set.json<{ code: number }>().code).toBe(200)
    const cookie = cookieOf(set)
    expect(cookie).toMatchObject({ value: token, httpOnly: true, sameSite: 'Lax', path: '/' })
    // As long as the session has left: 30 days, less the seconds this test took.
    expect(cookie?.maxAge).toBeGreaterThan(30 * 24 * 3600 - 60)
    expect(cookie?.maxAge).toBeLessThanOrEqual(30 * 24 * 3600)
    // A plain GET of the API, which a proxy might cache: not with this Set-Cookie in it.
    expect(set.headers['cache-control']).toBe('private, no-store')
    // Once: a call carrying it gets no new one; a call carrying another token's cookie puts it right.
    expect(cookieOf(await call(token))).toBeUndefined()
    expect(cookieOf(await call('another-token-of-this-browser'))?.value).toBe(token)

    const cleared = await t().app.inject({
      method: 'DELETE',
      url: '/api/session/cookie',
      headers: { cookie: `${SESSION_COOKIE}=${token}`, origin: ORIGIN },
    })
    expect(cleared.json<{ code: number }>().code).toBe(200)
    expect(cookieOf(cleared)).toMatchObject({ value: '', maxAge: 0 })
    // Clearing the cookie ends no session.
    expect((await resolveToken(t().database.db, token)).principal).not.toBeNull()
  })
})

describe('GET /api/userinfo', () => {
  const t = useTestApp()

  it('answers the VIP with the profile, so /mine needs no second request', async () => {
    const { token } = await signIn(t().app)
    const ask = async () =>
      (await t().app.inject({ method: 'GET', url: '/api/userinfo', headers: { 'zxb-token': token } })).json<{
        data: { member_id: number; vip: { active: boolean; expires_at: string } | null }
      }>().data
    const before = await ask()
    expect(before.vip).toBeNull()
    const until = await extendVipMembership(t().database.db, before.member_id, 30, new Date())
    expect((await ask()).vip).toEqual({ active: true, expires_at: until.toISOString() })
  })
})

describe('the session cookie on HTTPS', () => {
  const t = useTestApp({ PUBLIC_URL: 'https://zixue.example.com' })

  it('is Secure when the public address is HTTPS', async () => {
    const phone = randomPhone()
    const ip = randomIp()
    await t().app.inject({ method: 'POST', url: '/api/send_code', payload: { phone }, remoteAddress: ip })
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { phone, phone_code: await outboxCode(t().app, phone) },
      remoteAddress: ip,
    })
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toMatchObject({ secure: true, httpOnly: true })
  })
})
