import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { outboxCode, randomIp, randomPhone, signIn, testClock } from '#server/modules/auth/testing.ts'
import { useTestApp } from '#tests/support/app.ts'

interface Touch {
  visitor_id: string | null
  member_id: number | null
  sp: string
  url: string | null
}

describe('promotion source (sp) attribution', () => {
  const clock = testClock()
  const t = useTestApp({}, { integrations: { now: clock.now } })

  async function touches() {
    const result = await t().database.db.execute(
      sql`select visitor_id, member_id, sp, url from attributions order by id`,
    )
    return result.rows as unknown as Touch[]
  }

  async function settle() {
    // Attribution is written after the response is sent: wait until the writes of earlier requests are visible.
    let last = -1
    for (let i = 0; i < 40; i++) {
      await new Promise((r) => setTimeout(r, 25))
      const result = await t().database.db.execute(sql`select count(*)::int as n from attributions`)
      const n = (result.rows[0] as { n: number }).n
      if (n === last) return
      last = n
    }
  }

  it('records the first touch of a visitor from the query and keeps it', async () => {
    const first = await t().app.inject({ method: 'GET', url: '/api/health?sp=teacher_wang&url=/course/1001.html' })
    const cookie = first.cookies.find((c) => c.name === 'zx_vid')
    expect(cookie?.httpOnly).toBe(true)
    await settle()
    await t().app.inject({ method: 'GET', url: '/api/health?sp=someone_else', cookies: { zx_vid: cookie!.value } })
    await settle()
    const rows = (await touches()).filter((r) => r.visitor_id === cookie!.value)
    expect(rows).toEqual([{ visitor_id: cookie!.value, member_id: null, sp: 'teacher_wang', url: '/course/1001.html' }])
  })

  it('reads sp from a JSON body too and credits the member who signs in with it', async () => {
    const phone = randomPhone()
    const ip = randomIp()
    await t().app.inject({ method: 'POST', url: '/api/send_code', payload: { phone }, remoteAddress: ip })
    const code = await outboxCode(t().app, phone)
    const login = await t().app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { phone, phone_code: code, platform: 2, sp: 'promo_login', url: '/mine' },
      remoteAddress: ip,
    })
    expect(login.json<{ code: number }>().code).toBe(200)
    await settle()
    const rows = (await touches()).filter((r) => r.sp === 'promo_login')
    expect(rows.some((r) => r.member_id !== null)).toBe(true)
    expect(rows.some((r) => r.visitor_id !== null)).toBe(true)
  })

  it('credits a member with the first touch of the browser they sign in from', async () => {
    const visit = await t().app.inject({ method: 'GET', url: '/api/health?sp=poster_42' })
    const visitorId = visit.cookies.find((c) => c.name === 'zx_vid')!.value
    await settle()
    const phone = randomPhone()
    const ip = randomIp()
    await t().app.inject({
      method: 'POST',
      url: '/api/send_code',
      payload: { phone },
      remoteAddress: ip,
      cookies: { zx_vid: visitorId },
      // What a browser sends with a POST (server/http/csrf.ts)
      headers: { origin: 'http://localhost' },
    })
    const code = await outboxCode(t().app, phone)
    await t().app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { phone, phone_code: code, platform: 2 },
      remoteAddress: ip,
      cookies: { zx_vid: visitorId },
      // What a browser sends with a POST (server/http/csrf.ts)
      headers: { origin: 'http://localhost' },
    })
    await settle()
    const rows = (await touches()).filter((r) => r.sp === 'poster_42')
    expect(rows.map((r) => (r.member_id ? 'member' : 'visitor')).sort()).toEqual(['member', 'visitor'])
  })

  it('ignores a malformed sp', async () => {
    const res = await t().app.inject({ method: 'GET', url: `/api/health?sp=${encodeURIComponent('<script>')}` })
    expect(res.cookies.find((c) => c.name === 'zx_vid')).toBeUndefined()
  })

  it('judges token expiry by the app clock', async () => {
    const { token } = await signIn(t().app)
    expect(
      (await t().app.inject({ method: 'GET', url: '/api/userinfo', headers: { 'zxb-token': token } })).json<{
        code: number
      }>().code,
    ).toBe(200)
    clock.advance(31 * 24 * 3600 * 1000)
    try {
      const res = await t().app.inject({ method: 'GET', url: '/api/userinfo', headers: { 'zxb-token': token } })
      expect(res.json<{ code: number }>().code).toBe(504)
    } finally {
      clock.reset()
    }
  })
})
