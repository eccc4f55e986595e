import { Writable } from 'node:stream'
import Fastify, { LogController } from 'fastify'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useTestApp } from '#tests/support/app.ts'
import { registerAccessLog, type AccessLog, type AccessLogOptions } from '#server/http/access-log.ts'

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

function appWith(options: AccessLogOptions) {
  const log = capture()
  const app = Fastify({
    logger: { level: 'info', stream: log.stream },
    logController: new LogController({ disableRequestLogging: true }),
  })
  registerAccessLog(app, options)
  return { app, log }
}

describe('ACCESS_LOG modes', () => {
  async function linesFor(mode: AccessLog) {
    const { app, log } = appWith({ mode, perSecond: 100 })
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

describe('ACCESS_LOG_PER_SECOND', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('logs the first reads of each second, counts the rest once the second is over, never drops errors or writes', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-27T04:00:00.000Z') })
    const { app, log } = appWith({ mode: 'all', perSecond: 3 })
    app.get('/ok', async () => 'ok')
    app.get('/bad', async (_request, reply) => reply.code(400).send('bad'))
    app.post('/order', async () => ({ ok: true }))
    for (let i = 0; i < 5; i++) await app.inject({ url: '/ok' })
    await app.inject({ url: '/bad' })
    await app.inject({ method: 'POST', url: '/order' })
    expect(log.lines.map((l) => `${String(l.method)} ${String(l.status)}`)).toEqual([
      'GET 200',
      'GET 200',
      'GET 200',
      'GET 400',
      'POST 200',
    ])

    vi.setSystemTime(new Date('2026-11-27T04:00:01.200Z'))
    await app.inject({ url: '/ok' })
    expect(log.lines.slice(5)).toMatchObject([
      { msg: 'requests not logged', skipped: 2, since: '2026-11-27T04:00:00.000Z' },
      { msg: 'request', status: 200 },
    ])
    for (let i = 0; i < 3; i++) await app.inject({ url: '/ok' })
    await app.close()
    // The count of a second still running is written when the server closes.
    expect(log.lines.at(-1)).toMatchObject({ msg: 'requests not logged', skipped: 1 })
    expect(log.lines.filter((l) => l.msg === 'request')).toHaveLength(8)
  })

  it('logs every answer with no cap, and a slow one always', async () => {
    const { app, log } = appWith({ mode: 'all', perSecond: 0 })
    app.get('/ok', async () => 'ok')
    for (let i = 0; i < 150; i++) await app.inject({ url: '/ok' })
    await app.close()
    expect(log.lines.filter((l) => l.msg === 'request')).toHaveLength(150)

    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-27T04:00:00.000Z') })
    const slow = appWith({ mode: 'all', perSecond: 1, slowMs: 200 })
    slow.app.get('/ok', async () => 'ok')
    slow.app.get('/slow', async () => new Promise((resolve) => setTimeout(() => resolve('late'), 250)))
    await slow.app.inject({ url: '/ok' })
    await slow.app.inject({ url: '/ok' })
    await slow.app.inject({ url: '/slow' })
    await slow.app.close()
    expect(slow.log.lines.filter((l) => l.msg === 'request').map((l) => l.path)).toEqual(['/ok', '/slow'])
  })

  it('writes the count when its second ends, even when no read follows', async () => {
    // Date is faked at the start of a second; the timer that ends it is real (a second).
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-27T04:00:00.000Z') })
    const { app, log } = appWith({ mode: 'all', perSecond: 1 })
    app.get('/ok', async () => 'ok')
    for (let i = 0; i < 3; i++) await app.inject({ url: '/ok' })
    expect(log.lines.filter((l) => l.msg === 'requests not logged')).toEqual([])
    await vi.waitFor(
      () => expect(log.lines.find((l) => l.msg === 'requests not logged')).toMatchObject({ skipped: 2 }),
      { timeout: 3000, interval: 50 },
    )
    await app.close()
    expect(log.lines.filter((l) => l.msg === 'requests not logged')).toHaveLength(1)
  })
})
