import fastifyRateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type pg from 'pg'
import { AppError } from './app-error.ts'
import { Codes } from './codes.ts'
import { createPrecount, type Precount } from './rate-limit-precount.ts'
import { hit, peek, sweep } from './rate-limit.repository.ts'

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void

const WINDOW_MS = 60_000

/**
 * A store of @fastify/rate-limit on the `rate_limits` table, so every instance counts the same hits
 * (docs/decisions/2026-11-25-rate-limit.md). The tight rules write every hit (one statement); the general rule
 * counts in the process first and writes in batches (`precount`). A failing database lets the request through
 * (skipOnError) rather than taking the site down with it.
 */
function postgresStore(pool: pg.Pool, precount: Precount) {
  let calls = 0
  return class PostgresRateLimitStore {
    incr(key: string, cb: Callback, timeWindow: number) {
      if (++calls % 1000 === 0) void sweep(pool).catch(() => undefined)
      if (key.startsWith(`${GENERAL}:`)) return cb(null, precount.hit(key))
      hit(pool, key, timeWindow).then((res) => cb(null, res), cb)
    }
    read(key: string, cb: Callback) {
      peek(pool, key).then((res) => cb(null, res), cb)
    }
    child() {
      return new PostgresRateLimitStore()
    }
  }
}

export interface RateLimitOptions {
  pool: pg.Pool
  /** Requests a minute per address on everything without a tighter rule (RATE_LIMIT_PER_MINUTE). */
  perMinute: number
}

/** The general rule's name in the keys (`all:<address>`). */
const GENERAL = 'all'

/** Tighter rules, per address and minute: the first whose pattern matches the route (method and path) applies. */
const tightRules: { name: string; max: number; match: RegExp }[] = [
  { name: 'sms', max: 5, match: /^POST \/api\/send_code$/ },
  { name: 'signin', max: 10, match: /^POST \/api\/(login|bindPhone|wechat\/login)$/ },
  { name: 'search', max: 30, match: /^GET \/api\/searchCourse$/ },
  { name: 'upload', max: 20, match: /^POST \/api\/(uploadImage|admin\/.*upload.*)$/i },
  { name: 'comment', max: 20, match: /^POST \/api\/comment(\/(like|private))?$/ },
  { name: 'pay', max: 20, match: /^POST \/api\/(pay\/(?!notify\/)|refunds?\b)/ },
  // Platform order numbers and voucher codes tried (issue 14 §2): guessing stays slow.
  { name: 'exchange', max: 20, match: /^POST \/api\/(tiktok|ksxd|xhs)\/order2course$/ },
  // Lead forms (issue 15 §1): a flood of sign-ups from one address.
  { name: 'lead', max: 10, match: /^POST \/api\/course\/signUp$/ },
]

/** Never limited: providers' payment notifications (a lost one is a lost payment), health checks, metrics. */
const exempt = /^\/(api\/pay\/notify\/|api\/douyin\/notify|api\/health|api\/metrics|assets\/)/

function ruleOf(request: FastifyRequest) {
  const route = `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`
  return tightRules.find((r) => r.match.test(route))
}

export const rateLimitPlugin = fp(async (app: FastifyInstance, opts: RateLimitOptions) => {
  const precount = createPrecount(opts.pool, WINDOW_MS)
  app.addHook('onClose', () => precount.flush())
  await app.register(fastifyRateLimit, {
    global: true,
    store: postgresStore(opts.pool, precount),
    skipOnError: true,
    timeWindow: WINDOW_MS,
    allowList: (request) => exempt.test(request.url),
    keyGenerator: (request) => `${ruleOf(request)?.name ?? GENERAL}:${request.ip}`,
    max: (request) => ruleOf(request)?.max ?? opts.perMinute,
    errorResponseBuilder: (_request, context) =>
      new AppError(Codes.TooManyRequests, `操作太频繁，请 ${Math.max(1, Math.ceil(context.ttl / 1000))} 秒后再试`),
  })
})
