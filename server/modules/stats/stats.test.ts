import { desc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { statEvents } from '#server/db/schema/stats.ts'
import { testClock } from '#server/modules/auth/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import { statNames } from './stats.schema.ts'
import { dailyRollup } from './stats.service.ts'

const clock = testClock()

describe('POST /api/stat/*/click', () => {
  const t = useTestApp({}, { integrations: { now: clock.now } })

  async function click(name: string, payload?: unknown, headers: Record<string, string> = {}) {
    const res = await t().app.inject({
      method: 'POST',
      url: `/api/stat/${name}/click`,
      payload: payload as object,
      headers,
    })
    return { status: res.statusCode, body: res.json<{ code: number; msg: string; data: unknown }>() }
  }
  const last = async () => (await t().database.db.select().from(statEvents).orderBy(desc(statEvents.id)).limit(1))[0]!

  it('records each of the spec’s nine clicks with the member, position, page and time', async () => {
    const m = await makeMember(t().database.db)
    clock.set(new Date('2026-06-01T01:02:03Z'))
    for (const name of statNames) {
      expect(
        (await click(name, { position: 1, page: '/vip', sp: 'ad1', url: 'http://x/vip?sp=ad1' }, m.headers)).body,
      ).toEqual({ code: 200, msg: 'ok', data: {} })
      const row = await last()
      expect(row).toMatchObject({ event: name, memberId: m.id, position: '1', page: '/vip', courseId: null })
      expect(Math.abs(row.createdAt.getTime() - Date.parse('2026-06-01T01:02:03Z'))).toBeLessThan(5_000)
    }
    clock.reset()
  })

  it('accepts what navigator.sendBeacon sends: a text/plain JSON body carrying the token', async () => {
    const m = await makeMember(t().database.db)
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/stat/vipBuyBtn/click',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      payload: JSON.stringify({ position: 2, page: '/vip', token: m.token }),
    })
    expect(res.json()).toEqual({ code: 200, msg: 'ok', data: {} })
    expect(await last()).toMatchObject({ event: 'vipBuyBtn', memberId: m.id, position: '2', page: '/vip' })
    // A beacon with a revoked or made-up token still counts, anonymously; text that is not JSON is a bare click.
    await click('fav', undefined, {})
    const bad = await t().app.inject({
      method: 'POST',
      url: '/api/stat/fav/click',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ token: 'x'.repeat(43) }),
    })
    expect(bad.json<{ code: number }>().code).toBe(200)
    expect(await last()).toMatchObject({ event: 'fav', memberId: null })
    const junk = await t().app.inject({
      method: 'POST',
      url: '/api/stat/fav/click',
      headers: { 'content-type': 'text/plain' },
      payload: 'not json',
    })
    expect(junk.json<{ code: number }>().code).toBe(200)
  })

  it('records anonymous clicks, a body-less request, a text position, and ignores a stale token', async () => {
    expect((await click('customer', { position: 3 })).body.code).toBe(200)
    expect(await last()).toMatchObject({ event: 'customer', memberId: null, position: '3', page: null })
    const bare = await click('project')
    expect(bare.body, JSON.stringify(bare.body)).toMatchObject({ code: 200 })
    expect(await last()).toMatchObject({ event: 'project', memberId: null, position: null })
    expect((await click('courseDetailTag', { position: 'intro' })).body.code).toBe(200)
    expect((await last()).position).toBe('intro')
    const stale = await click('vipTarbar', { position: 1 }, { 'zxb-token': 'x'.repeat(43) })
    expect(stale.body.code).toBe(200)
    expect(await last()).toMatchObject({ event: 'vipTarbar', memberId: null })
  })

  it('rejects an oversized or wrongly typed field with 400 and an unknown statistic with 404', async () => {
    expect((await click('fav', { position: 'x'.repeat(33) })).status).toBe(400)
    expect((await click('fav', { page: 'p'.repeat(301) })).status).toBe(400)
    expect((await click('fav', { position: { a: 1 } })).status).toBe(400)
    expect((await click('fav', { position: -1 })).status).toBe(400)
    expect((await click('nope', { position: 1 })).status).toBe(404)
  })
})

describe('dailyRollup', () => {
  const t = useTestApp()

  it('counts events and distinct members per Beijing day and event, within [from, to)', async () => {
    const db = t().database.db
    const [a, b] = [await makeMember(db), await makeMember(db)]
    const at = (iso: string) => new Date(iso)
    await db.insert(statEvents).values([
      // 2026-06-01 in Beijing runs from 2026-05-31T16:00Z to 2026-06-01T16:00Z.
      { event: 'vipTarbar', memberId: a.id, createdAt: at('2026-05-31T16:00:00Z') },
      { event: 'vipTarbar', memberId: a.id, createdAt: at('2026-06-01T03:00:00Z') },
      { event: 'vipTarbar', memberId: b.id, createdAt: at('2026-06-01T15:59:59Z') },
      { event: 'vipTarbar', memberId: null, createdAt: at('2026-06-01T10:00:00Z') },
      { event: 'customer', memberId: null, createdAt: at('2026-06-01T10:00:00Z') },
      // The next Beijing day.
      { event: 'vipTarbar', memberId: b.id, createdAt: at('2026-06-01T16:00:00Z') },
      // Outside the range.
      { event: 'vipTarbar', memberId: a.id, createdAt: at('2026-05-31T15:59:59Z') },
      { event: 'vipTarbar', memberId: a.id, createdAt: at('2026-06-02T16:00:00Z') },
    ])
    const rows = await dailyRollup(db, at('2026-05-31T16:00:00Z'), at('2026-06-02T16:00:00Z'))
    expect(rows).toEqual([
      { day: '2026-06-01', event: 'customer', count: 1, members: 0 },
      { day: '2026-06-01', event: 'vipTarbar', count: 4, members: 2 },
      { day: '2026-06-02', event: 'vipTarbar', count: 1, members: 1 },
    ])
    expect(await dailyRollup(db, at('2027-01-01T00:00:00Z'), at('2027-01-02T00:00:00Z'))).toEqual([])
    const [one] = await db.select().from(statEvents).where(eq(statEvents.event, 'customer'))
    expect(one?.memberId).toBeNull()
  })
})
