import { z } from 'zod'
import { Fen } from './money.ts'

// GET /api/data/sell: the staff's sales figures on a phone (/data/sell, spec 7), in integer fen.

/** The periods the figures cover, each in Beijing days: today, yesterday, this calendar month up to now. */
const SalesPeriods = ['today', 'yesterday', 'month'] as const

const Channel = z.object({
  key: z.string().describe('"site:<order kind>" or "exchange:<platform>"'),
  source: z.enum(['site', 'exchange']),
  name: z.string(),
  orders: z.number().int().describe('Site: orders paid in the period; exchange: platform orders exchanged in it'),
  revenue_fen: Fen.describe(
    'Site: what the paid orders took; exchange: what buyers paid the platform for the exchanged lines',
  ),
  unpriced_lines: z.number().int().describe('Exchanged lines whose platform did not say the amount (not in revenue)'),
})

const Period = z.object({
  key: z.enum(SalesPeriods),
  name: z.string(),
  from: z.string().describe('Beijing midnight starting the period (ISO)'),
  to: z.string().describe('End of the period, exclusive (ISO): tomorrow’s Beijing midnight for today and the month'),
  orders: z.number().int(),
  revenue_fen: Fen,
  channels: z.array(Channel).describe('Every site order kind, then every exchange platform, zeros included'),
})

export const SalesFigures = z.object({ as_of: z.string(), periods: z.array(Period) })
export type SalesFigures = z.infer<typeof SalesFigures>
