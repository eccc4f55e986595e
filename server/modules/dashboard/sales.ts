import type { Db } from '#server/db/database.ts'
import { exchangeFigures } from '#server/modules/exchange/exchange.service.ts'
import { paidOrderFigures, type PaidOrderFigure } from '#server/modules/orders/orders.service.ts'
import { PlatformNames, Platforms } from '#shared/exchange-platforms.ts'
import type { SalesFigures } from '#shared/api/sales.ts'
import { beijingDate, beijingDayFromText, beijingDayStart } from '#shared/time.ts'

/** The site's order kinds as the sales page names them (every kind: the type says when one is missing). */
const kindNames: Record<PaidOrderFigure['kind'], string> = {
  course: '课程',
  vip: 'VIP 会员',
  bundle: '课程套餐',
  favourites: '收藏合买',
  amount: '指定金额',
  tuition: '学费',
}
const kinds = Object.keys(kindNames) as PaidOrderFigure['kind'][]

/** Today, yesterday and this month in Beijing days: each from its Beijing midnight, the end exclusive. */
function salesPeriods(at: Date) {
  const today = beijingDayStart(at)
  const day = beijingDate(today)
  const tomorrow = beijingDayFromText(day, 1)
  return [
    { key: 'today', name: '今天', from: today, to: tomorrow },
    { key: 'yesterday', name: '昨天', from: beijingDayFromText(day, -1), to: today },
    { key: 'month', name: '本月', from: beijingDayFromText(`${day.slice(0, 8)}01`), to: tomorrow },
  ] as const
}

const total = <T>(rows: T[], f: (r: T) => number) => rows.reduce((n, r) => n + f(r), 0)

/** One channel's figures from its rows (site rows have no unpriced lines). */
function channel(
  source: 'site' | 'exchange',
  id: string,
  name: string,
  rows: { orders: number; fen: number; unpriced?: number }[],
) {
  return {
    key: `${source}:${id}`,
    source,
    name,
    orders: total(rows, (r) => r.orders),
    revenue_fen: total(rows, (r) => r.fen),
    unpriced_lines: total(rows, (r) => r.unpriced ?? 0),
  }
}

/**
 * The staff's sales figures (GET /api/data/sell): for today, yesterday and this month, the site's paid orders by
 * kind (paid in the period, as the dashboard counts them) and each exchange platform's orders exchanged in the
 * period with what the buyers paid the platform. Two reads over the whole span, split by Beijing day here.
 */
export function createSalesFigures(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps
  return {
    async figures(): Promise<SalesFigures> {
      const at = now()
      const periods = salesPeriods(at)
      const from = new Date(Math.min(...periods.map((p) => p.from.getTime())))
      const to = periods[0].to
      const [site, exchanged] = await Promise.all([paidOrderFigures(db, from, to), exchangeFigures(db, from, to)])
      return {
        as_of: at.toISOString(),
        periods: periods.map((p) => {
          const first = beijingDate(p.from)
          const end = beijingDate(p.to)
          const within = <T extends { day: string }>(rows: T[]) => rows.filter((r) => r.day >= first && r.day < end)
          const siteRows = within(site)
          const exchangeRows = within(exchanged)
          const channels = [
            ...kinds.map((k) =>
              channel(
                'site',
                k,
                kindNames[k],
                siteRows.filter((r) => r.kind === k),
              ),
            ),
            ...Platforms.map((k) =>
              channel(
                'exchange',
                k,
                PlatformNames[k],
                exchangeRows.filter((r) => r.platform === k),
              ),
            ),
          ]
          return {
            key: p.key,
            name: p.name,
            from: p.from.toISOString(),
            to: p.to.toISOString(),
            orders: total(channels, (c) => c.orders),
            revenue_fen: total(channels, (c) => c.revenue_fen),
            channels,
          }
        }),
      }
    },
  }
}

export type SalesFiguresService = ReturnType<typeof createSalesFigures>
