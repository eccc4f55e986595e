import crypto from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler, RouteOptions } from 'fastify'
import type pg from 'pg'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import { Codes } from './codes.ts'
import { sendError } from './error-handler.ts'

/** What the gauges read when Prometheus scrapes: the pool, and the job queue's depth (server/jobs). */
export interface MetricSources {
  pool: Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'> & { options: { max?: number } }
  queueDepth?: () => Promise<{ kind: string; status: string; n: number }[]>
}

/**
 * The process's Prometheus metrics, one registry per app (tests build many apps in one process). Names start with
 * `zixue_`; docs/grafana-dashboard.json charts them. Counters are per process: Prometheus sums the instances.
 */
export function createMetrics(sources: MetricSources) {
  const registry = new Registry()
  const registers = [registry]
  collectDefaultMetrics({ register: registry, prefix: 'zixue_' })
  /** A counter of this registry, by the labels named. */
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter({ name, help, labelNames, registers })
  /** A histogram of this registry, by the labels named, with these bucket bounds. */
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
    new Histogram({ name, help, labelNames, buckets, registers })

  const http = histogram(
    'zixue_http_request_duration_seconds',
    'HTTP requests by route pattern (not the raw URL), method and status: latency, and counts as _count',
    ['method', 'route', 'status'],
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  )
  new Gauge({
    name: 'zixue_db_pool_connections',
    help: 'Database pool connections: total open, idle, and requests waiting for one',
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.set({ state: 'total' }, sources.pool.totalCount)
      this.set({ state: 'idle' }, sources.pool.idleCount)
      this.set({ state: 'waiting' }, sources.pool.waitingCount)
    },
  })
  new Gauge({
    name: 'zixue_db_pool_max',
    help: 'Largest number of connections the pool opens (DATABASE_POOL_SIZE)',
    registers,
    collect() {
      this.set(sources.pool.options.max ?? 10)
    },
  })
  new Gauge({
    name: 'zixue_job_queue_depth',
    help: 'Jobs waiting (queued) and running, by kind (the whole queue, as this instance sees it in the database)',
    labelNames: ['kind', 'status'] as const,
    registers,
    async collect() {
      if (!sources.queueDepth) return
      this.reset()
      try {
        for (const row of await sources.queueDepth()) this.set({ kind: row.kind, status: row.status }, row.n)
      } catch {
        // The database is unreachable: no figure rather than a failed scrape (the ready check says why).
      }
    },
  })
  const jobRuns = counter(
    'zixue_job_runs_total',
    'Job attempts by kind and result: done, retry (failed, will run again), failed (for good), given_back',
    ['kind', 'result'],
  )
  const jobDuration = histogram(
    'zixue_job_duration_seconds',
    'How long job attempts ran, by kind',
    ['kind'],
    [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800],
  )
  const transcodes = counter(
    'zixue_transcodes_total',
    'Video transcodes by result: done, retry, failed (for good), given_back',
    ['result'],
  )
  const transcodeDuration = histogram(
    'zixue_transcode_duration_seconds',
    'How long transcodes ran (each attempt)',
    [],
    [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600],
  )
  const paymentNotifications = counter(
    'zixue_payment_notifications_total',
    'Provider notifications by provider, kind (payment, refund) and outcome (applied, duplicate, bad_signature, …, error)',
    ['provider', 'kind', 'outcome'],
  )
  const smsSends = counter('zixue_sms_sends_total', 'SMS codes sent, by provider and result (sent, failed)', [
    'provider',
    'result',
  ])
  const businessEvents = counter(
    'zixue_business_events_total',
    'Business events logged: order.paid, order.refunded, access.granted, access.revoked, job.failed',
    ['event'],
  )

  return {
    registry,
    http,
    paymentNotifications,
    smsSends,
    businessEvents,
    /** One finished job attempt (server/jobs/start.ts); `transcode` marks the video transcoding kind. */
    jobFinished(kind: string, result: 'done' | 'retry' | 'failed' | 'given_back', seconds: number, transcode = false) {
      jobRuns.inc({ kind, result })
      if (result !== 'given_back') jobDuration.observe({ kind }, seconds)
      if (transcode) {
        transcodes.inc({ result })
        if (result !== 'given_back') transcodeDuration.observe(seconds)
      }
    },
  }
}

export type Metrics = ReturnType<typeof createMetrics>

type Child = ReturnType<Metrics['http']['labels']>

/** Probes and the scrape itself are not traffic. */
const unmeasured = /^\/(metrics$|api\/health)/

/**
 * Times every route: each one, as it is registered, gets its own onResponse hook that knows its pattern
 * (`/api/course/:id`, never the raw URL), so a request costs two map lookups and the histogram's observe.
 * Register before any route.
 */
export function instrumentRoutes(app: FastifyInstance, metrics: Metrics) {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (unmeasured.test(route.url)) return
    const children = new Map<string, Map<number, Child>>()
    const observe: onResponseHookHandler = (request, reply, done) => {
      let byStatus = children.get(request.method)
      if (!byStatus) children.set(request.method, (byStatus = new Map<number, Child>()))
      const status = reply.statusCode
      let child = byStatus.get(status)
      if (!child) byStatus.set(status, (child = metrics.http.labels(request.method, route.url, String(status))))
      child.observe(reply.elapsedTime / 1000)
      done()
    }
    const existing = route.onResponse
    route.onResponse = existing ? [...(Array.isArray(existing) ? existing : [existing]), observe] : observe
  })
}

function sameSecret(given: string, expected: string) {
  const a = crypto.createHash('sha256').update(given).digest()
  const b = crypto.createHash('sha256').update(expected).digest()
  return crypto.timingSafeEqual(a, b)
}

/**
 * GET /metrics in Prometheus's text format, for whoever holds METRICS_TOKEN (`Authorization: Bearer …`); without a
 * token configured the route does not exist.
 */
export async function metricsRoute(app: FastifyInstance, opts: { metrics: Metrics; token: string }) {
  app.get('/metrics', { schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization ?? ''
    const given = header.startsWith('Bearer ') ? header.slice(7).trim() : ''
    if (!given || !sameSecret(given, opts.token)) return sendError(reply, Codes.Forbidden, '需要正确的 METRICS_TOKEN')
    const body = await opts.metrics.registry.metrics()
    return reply.type(opts.metrics.registry.contentType).header('cache-control', 'no-store').send(body)
  })
}
