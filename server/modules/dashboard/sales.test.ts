import { describe, expect, it } from 'vitest'
import { exchangeRecords } from '#server/db/schema/exchange.ts'
import { orders } from '#server/db/schema/orders.ts'
import { testClock } from '#server/modules/auth/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import type { SalesFigures } from '#shared/api/sales.ts'

const clock = testClock()

/** The Beijing calendar day of an instant, computed here with Intl (the service uses SQL and shared/time.ts). */
const dayOf = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' })
    .format(at)
    .slice(0, 10)

type Kind = 'course' | 'vip' | 'bundle' | 'tuition'
/** Site orders: when paid (null: still pending), kind, amount. */
const siteOrders: [string | null, Kind, number][] = [
  ['2026-10-31T15:50:00Z', 'course', 1100], // Beijing Oct 31 23:50: last month
  ['2026-10-31T16:10:00Z', 'course', 2200], // Beijing Nov 1 00:10: this month
  ['2026-11-10T04:00:00Z', 'vip', 3300],
  ['2026-11-15T03:00:00Z', 'course', 4400], // yesterday (Beijing Nov 15)
  ['2026-11-15T15:59:00Z', 'bundle', 5500], // Beijing Nov 15 23:59: yesterday
  ['2026-11-15T16:30:00Z', 'course', 6600], // Beijing Nov 16 00:30: today, though the 15th in UTC
  ['2026-11-16T01:00:00Z', 'tuition', 7700], // today
  [null, 'course', 9900], // pending: not a sale
]
/** Exchanged lines: when, platform, order, amount the buyer paid (null: the platform did not say), revoked since. */
const exchanged: [string, 'douyin_life' | 'kuaishou' | 'wechat_shop', string, number | null, boolean][] = [
  ['2026-10-31T10:00:00Z', 'kuaishou', 'K0', 9900, false], // last month
  ['2026-11-03T10:00:00Z', 'kuaishou', 'K1', 9900, true], // revoked later: still exchanged that day
  ['2026-11-15T10:00:00Z', 'douyin_life', 'D1', 6900, false], // yesterday, two vouchers of one order
  ['2026-11-15T10:00:00Z', 'douyin_life', 'D1', 6900, false],
  ['2026-11-16T00:30:00Z', 'wechat_shop', 'W1', null, false], // today, no amount
  ['2026-11-16T00:40:00Z', 'kuaishou', 'K2', 4900, false], // today
]

describe('GET /api/data/sell (sales figures for staff)', () => {
  const t = useTestApp({}, { integrations: { now: clock.now } })

  const get = async (token?: string) => {
    const res = await t().app.inject({
      method: 'GET',
      url: '/api/data/sell',
      headers: token ? { 'zxb-token': token } : {},
    })
    return { status: res.statusCode, body: res.json<{ code: number; msg: string; data: SalesFigures }>() }
  }

  it('answers 301 without a session and 403 to a learner, a teacher and an assistant', async () => {
    const { db } = t().database
    expect((await get()).body.code).toBe(301)
    for (const role of ['member', ['teacher'], ['assistant']] as const) {
      const m = await makeMember(db, role)
      const res = await get(m.token)
      expect(res.status).toBe(403)
      expect(res.body.code).toBe(403)
    }
  })

  it('equals the sums of the orders and exchange records computed independently, by Beijing day', async () => {
    const { db } = t().database
    const buyer = await makeMember(db)
    let n = 0
    for (const [paid, kind, fen] of siteOrders) {
      const at = new Date(paid ?? '2026-11-16T01:00:00Z')
      await db.insert(orders).values({
        orderNo: `SELL${++n}`,
        memberId: buyer.id,
        kind,
        target: `${kind}:${n}`,
        title: `订单 ${n}`,
        amountFen: fen,
        originalFen: fen,
        state: paid ? 'paid' : 'pending',
        payMethod: 'wechat_jsapi',
        paidAt: paid ? at : null,
        createdAt: at,
        expiresAt: new Date(at.getTime() + 3600_000),
        updatedAt: at,
      })
    }
    n = 0
    for (const [at, platform, orderId, fen, revoked] of exchanged) {
      await db.insert(exchangeRecords).values({
        platform,
        orderId,
        lineId: `${orderId}-${++n}`,
        skuId: 'SKU',
        productName: '课程',
        memberId: buyer.id,
        amountFen: fen,
        status: revoked ? 'revoked' : 'granted',
        grantedAt: new Date(at),
        revokedAt: revoked ? new Date('2026-11-05T00:00:00Z') : null,
      })
    }

    // Beijing Nov 16 01:30.
    clock.set(new Date('2026-11-15T17:30:00Z'))
    const finance = await makeMember(db, ['finance'])
    const res = await get(finance.token)
    clock.reset()
    expect(res.status).toBe(200)

    const inPeriod: Record<string, (day: string) => boolean> = {
      today: (d) => d === '2026-11-16',
      yesterday: (d) => d === '2026-11-15',
      month: (d) => d >= '2026-11-01' && d <= '2026-11-16',
    }
    expect(res.body.data.periods.map((p) => p.key)).toEqual(['today', 'yesterday', 'month'])
    for (const period of res.body.data.periods) {
      const within = inPeriod[period.key]!
      const site = siteOrders.filter(([paid]) => paid !== null && within(dayOf(new Date(paid))))
      const lines = exchanged.filter(([at]) => within(dayOf(new Date(at))))
      const channel = (key: string) => period.channels.find((c) => c.key === key)!
      for (const kind of ['course', 'vip', 'bundle', 'tuition', 'amount', 'favourites']) {
        const mine = site.filter(([, k]) => k === kind)
        expect(channel(`site:${kind}`), `${period.key} ${kind}`).toMatchObject({
          source: 'site',
          orders: mine.length,
          revenue_fen: mine.reduce((s, [, , fen]) => s + fen, 0),
        })
      }
      for (const platform of ['douyin_life', 'douyin_shop', 'kuaishou', 'xiaohongshu', 'wechat_shop']) {
        const mine = lines.filter(([, p]) => p === platform)
        expect(channel(`exchange:${platform}`), `${period.key} ${platform}`).toMatchObject({
          source: 'exchange',
          orders: new Set(mine.map(([, , order]) => order)).size,
          revenue_fen: mine.reduce((s, [, , , fen]) => s + (fen ?? 0), 0),
          unpriced_lines: mine.filter(([, , , fen]) => fen === null).length,
        })
      }
      expect(period.revenue_fen).toBe(period.channels.reduce((s, c) => s + c.revenue_fen, 0))
    }
    // The figures themselves, spelled out once.
    const [today, yesterday, month] = res.body.data.periods
    expect([today!.orders, today!.revenue_fen]).toEqual([2 + 2, 6600 + 7700 + 4900])
    expect([yesterday!.orders, yesterday!.revenue_fen]).toEqual([2 + 1, 4400 + 5500 + 6900 * 2])
    expect(month!.revenue_fen).toBe(2200 + 3300 + 4400 + 5500 + 6600 + 7700 + 9900 + 6900 * 2 + 4900)
    expect(today!.from).toBe('2026-11-15T16:00:00.000Z')
    expect(month!.from).toBe('2026-10-31T16:00:00.000Z')
  })

  it('on the first of the month, yesterday is last month and the month is today', async () => {
    clock.set(new Date('2026-11-01T03:00:00Z'))
    const operator = await makeMember(t().database.db, ['operator'])
    const res = await get(operator.token)
    clock.reset()
    const [today, yesterday, month] = res.body.data.periods
    expect(today!.revenue_fen).toBe(2200)
    expect(month!.revenue_fen).toBe(2200)
    expect(yesterday!.revenue_fen).toBe(1100 + 9900)
    expect(yesterday!.channels.find((c) => c.key === 'exchange:kuaishou')!.orders).toBe(1)
  })
})
