import { envelope } from '#server/http/envelope.ts'
import { apiPlugin } from '#server/http/route.ts'
import { SalesFigures } from '#shared/api/sales.ts'
import type { SalesFiguresService } from './dashboard.service.ts'

/** GET /data/sell (spec 7): the sales figures staff read on their phones (/data/sell), for those with sales.read. */
export const salesRoutes = apiPlugin({ tags: ['dashboard'] }, (r, { sales }: { sales: SalesFiguresService }) => {
  r.get(
    '/data/sell',
    {
      summary:
        'Sales figures (staff): today, yesterday and this month by channel (site order kinds, exchange platforms)',
      description:
        'Integer fen. Site: orders paid in the period by kind. Exchange: platform orders exchanged in the period, with what the buyers paid the platform where it said so. Beijing days. Needs sales.read (403 otherwise).',
      auth: 'staff',
      permission: 'sales.read',
      response: envelope(SalesFigures),
    },
    async () => sales.figures(),
  )
})
