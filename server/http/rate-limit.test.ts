import { describe, expect, it } from 'vitest'
import { useTestApp } from '#tests/support/app.ts'
import { createPrecount } from './rate-limit-precount.ts'

describe('rate limit (shared in PostgreSQL)', () => {
  const t = useTestApp({ RATE_LIMIT: 'true', RATE_LIMIT_PER_MINUTE: '8' })
  const from = (ip: string) => ({ remoteAddress: ip })

  it('answers 429 in the envelope with Retry-After once an address passes the general limit', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 9; i++) {
      const res = await t().app.inject({ method: 'GET', url: '/api/hotWords', ...from('10.0.0.1') })
      statuses.push(res.statusCode)
      if (res.statusCode === 429) {
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
        const body = res.json<{ code: number; msg: string }>()
        expect(body.code).toBe(429)
        expect(body.msg).toMatch(/^操作太频繁，请 \d+ 秒后再试$/)
      }
    }
    expect(statuses.slice(0, 8).every((s) => s === 200)).toBe(true)
    expect(statuses[8]).toBe(429)
    // another address is not affected
    expect((await t().app.inject({ method: 'GET', url: '/api/hotWords', ...from('10.0.0.2') })).statusCode).toBe(200)
  })

  it('counts in the database, so every instance sees the same hits', async () => {
    // The general rule writes its hits in batches, a quarter of a second apart.
    const hits = async () =>
      (await t().database.pool.query<{ hits: number }>(`SELECT hits FROM rate_limits WHERE key = 'all:10.0.0.1'`))
        .rows[0]?.hits
    await expect.poll(hits, { timeout: 2000 }).toBe(9)
  })

  it('adds up the hits two instances counted apart once they have written them', async () => {
    const pool = t().database.pool
    const a = createPrecount(pool, 60_000, 60_000)
    const b = createPrecount(pool, 60_000, 60_000)
    for (let i = 0; i < 5; i++) a.hit('all:10.0.0.9')
    for (let i = 0; i < 3; i++) b.hit('all:10.0.0.9')
    // Before writing, each knows only its own hits; writing, each learns everyone's.
    expect(a.hit('all:10.0.0.9').current).toBe(6)
    await a.flush()
    await b.flush()
    expect(b.hit('all:10.0.0.9').current).toBe(10)
    expect(a.hit('all:10.0.0.9').current).toBe(7)
    await a.flush()
    expect(a.hit('all:10.0.0.9').current).toBe(11)
    await a.flush()
    await b.flush()
    const { rows } = await pool.query<{ hits: number }>(`SELECT hits FROM rate_limits WHERE key = 'all:10.0.0.9'`)
    expect(rows[0]!.hits).toBe(12)
  })

  it('limits sending SMS codes tighter than the rest', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/send_code',
        payload: { phone: `1380013800${i}` },
        ...from('10.0.0.3'),
      })
      statuses.push(res.statusCode)
    }
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true)
    expect(statuses[5]).toBe(429)
  })

  it('never limits payment notifications', async () => {
    for (let i = 0; i < 12; i++) {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/pay/notify/alipay',
        payload: 'x=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        ...from('10.0.0.4'),
      })
      expect(res.statusCode).not.toBe(429)
    }
  })
})
