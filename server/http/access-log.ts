import type { FastifyInstance } from 'fastify'

/**
 * Which requests get an access-log line: `all` (one line each, fast reads capped per second; the default), `errors`
 * (status ≥ 400 only) or `off`.
 * Fastify's own pair of lines per request (incoming + completed) is turned off in app.ts: see
 * docs/decisions/2026-11-25-access-log-and-compression.md for the cost measured.
 */
export type AccessLog = 'all' | 'errors' | 'off'

export interface AccessLogOptions {
  mode: AccessLog
  /**
   * At most this many lines a second for reads (GET, HEAD) answered below 400 in under `slowMs` (0: no cap). Beyond
   * it, those reads are counted, and the first line of a later second says how many were not logged. A site's usual
   * traffic is logged whole, writes (orders, payments, sign-ins) and failures always; a flood of hot reads is not
   * slowed by its own log (issue 11 §3; docs/decisions/2026-11-27-access-log-cap.md).
   */
  perSecond: number
  /** Answers that took this long or longer are always logged. */
  slowMs?: number
}

/**
 * One line per finished request at `info` (fast reads capped, see `perSecond`): the request id, method, path
 * (never the query string: it can carry phones or codes), status and milliseconds. A synchronous hook, so the hot path pays one pino write and nothing else.
 * The line goes through a child logger without the app's redaction: its fields are fixed and hold nothing the
 * redaction looks for, and matching its key patterns against every line was half of the line's cost.
 */
export function registerAccessLog(app: FastifyInstance, { mode, perSecond, slowMs = 1000 }: AccessLogOptions) {
  if (mode === 'off') return
  const errorsOnly = mode === 'errors'
  const log = app.log.child({}, { redact: [] })
  let second = 0
  let written = 0
  let skipped = 0
  let skippedSince = 0
  let flush: NodeJS.Timeout | undefined

  /** The count of the requests left out, once their second is over (or when the server closes). */
  function writeSkipped() {
    clearTimeout(flush)
    flush = undefined
    if (skipped === 0) return
    log.info({ skipped, since: new Date(skippedSince).toISOString() }, 'requests not logged')
    skipped = 0
  }

  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode
    const ms = reply.elapsedTime
    if (errorsOnly ? status >= 400 : keep(request.method, status, ms)) {
      const q = request.url.indexOf('?')
      log.info(
        {
          reqId: request.id,
          method: request.method,
          path: q === -1 ? request.url : request.url.slice(0, q),
          status,
          ms: Math.round(ms * 10) / 10,
        },
        'request',
      )
    }
    done()
  })
  app.addHook('onClose', (_instance, done) => {
    writeSkipped()
    done()
  })

  function keep(method: string, status: number, ms: number): boolean {
    if (perSecond === 0 || status >= 400 || ms >= slowMs || (method !== 'GET' && method !== 'HEAD')) return true
    const now = Date.now()
    const thisSecond = Math.floor(now / 1000)
    if (thisSecond !== second) {
      second = thisSecond
      written = 0
      writeSkipped()
    }
    if (written < perSecond) {
      written++
      return true
    }
    if (skipped === 0) {
      skippedSince = now
      // Written when the second ends even if no read follows (a burst, then quiet).
      flush = setTimeout(writeSkipped, 1000 - (now % 1000))
      flush.unref()
    }
    skipped++
    return false
  }
}
