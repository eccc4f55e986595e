import { Writable } from 'node:stream'
import Fastify, { LogController } from 'fastify'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '#tests/support/app.ts'
import { registerAccessLog, type AccessLog } from '#server/http/access-log.ts'

/** Every line the logger writes, parsed. */
function capture() {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line) as never)
      done()
    },
  })
  return { lines, stream }
}

describe('access log of the whole app', () => {
  const log = capture()
  const t = useTestApp({ ACCESS_LOG: 'all' }, { logger: { level: 'info', stream: log.stream } })

  it('writes exactly one line per request, with method, path, status, time and request id', async () => {
    log.lines.length = 0
    const res = await t().app.inject({ method: 'GET', url: '/api/health?phone=13800000000' })
    expect(res.statusCode).toBe(200)
    expect(log.lines).toHaveLength(1)
    const line = log.lines[0]!
    expect(line).toMatchObject({ level: 30, msg: 'request', method: 'GET', path: '/api/health', status: 200 })
    expect(line.reqId).toBe(res.headers['x-request-id'])
    expect(typeof line.ms).toBe('number')
    expect(JSON.stringify(line)).not.toContain('13800000000')
  })

  it('one line for a refused request too', async () => {
    log.lines.length = 0
    const res = await t().app.inject({ method: 'GET', url: '/api/no-such-endpoint' })
    expect(res.statusCode).toBe(404)
    expect(log.lines.filter((l) => l.msg === 'request')).toHaveLength(1)
    expect(log.lines.find((l) => l.msg === 'request')).toMatchObject({ status: 404 })
  })
})

describe('ACCESS_LOG modes', () => {
  async function linesFor(mode: AccessLog) {
    const log = capture()
    const app = Fastify({
      logger: { level: 'info', stream: log.stream },
      logController: new LogController({ disableRequestLogging: true }),
    })
    registerAccessLog(app, mode)
    app.get('/ok', async () => 'ok')
    app.get('/bad', async (_request, reply) => reply.code(400).send('bad'))
    await app.inject({ url: '/ok' })
    await app.inject({ url: '/bad' })
    await app.close()
    return log.lines.filter((l) => l.msg === 'request').map((l) => l.status)
  }

  it('all: every request; errors: status ≥ 400 only; off: none', async () => {
    expect(await linesFor('all')).toEqual([200, 400])
    expect(await linesFor('errors')).toEqual([400])
    expect(await linesFor('off')).toEqual([])
  })
})
