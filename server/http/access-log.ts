import type { FastifyInstance } from 'fastify'

/**
 * Which requests get an access-log line: `all` (one line each, the default), `errors` (status ≥ 400 only) or `off`.
 * Fastify's own pair of lines per request (incoming + completed) is turned off in app.ts: see
 * docs/decisions/2026-11-25-access-log-and-compression.md for the cost measured.
 */
export type AccessLog = 'all' | 'errors' | 'off'

/**
 * One line per finished request at `info`: the request id, method, path (never the query string: it can carry phones
 * or codes), status and milliseconds. A synchronous hook, so the hot path pays one pino write and nothing else.
 * The line goes through a child logger without the app's redaction: its fields are fixed and hold nothing the
 * redaction looks for, and matching its key patterns against every line was half of the line's cost.
 */
export function registerAccessLog(app: FastifyInstance, mode: AccessLog) {
  if (mode === 'off') return
  const errorsOnly = mode === 'errors'
  const log = app.log.child({}, { redact: [] })
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode
    if (!errorsOnly || status >= 400) {
      const q = request.url.indexOf('?')
      log.info(
        {
          reqId: request.id,
          method: request.method,
          path: q === -1 ? request.url : request.url.slice(0, q),
          status,
          ms: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request',
      )
    }
    done()
  })
}
