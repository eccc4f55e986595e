import { windowCounters } from './columns.ts'

/**
 * Request counters of the rate limit (server/http/rate-limit.ts), shared by every instance: one row per
 * (rule, address) with the hits of the current window and when it ends. Rows past their window are reset in place
 * or swept.
 */
export const rateLimits = windowCounters('rate_limits')
