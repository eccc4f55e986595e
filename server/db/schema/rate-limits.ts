import { index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { timestamptz } from './columns.ts'

/**
 * Request counters of the rate limit (server/http/rate-limit.ts), shared by every instance: one row per
 * (rule, address) with the hits of the current window and when it ends. Rows past their window are reset in place
 * or swept.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text().primaryKey(),
    hits: integer().notNull(),
    resetAt: timestamptz().notNull(),
  },
  (t) => [index('rate_limits_reset_at_idx').on(t.resetAt)],
)
