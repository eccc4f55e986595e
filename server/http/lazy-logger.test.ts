import { Writable } from 'node:stream'
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify'
import { describe, expect, it } from 'vitest'
import { lazyChildLogger } from './lazy-logger.ts'

describe('lazyChildLogger', () => {
  it('makes the child logger on the first line only', () => {
    const lines: unknown[][] = []
    let made = 0
    const child = { warn: (...args: unknown[]) => lines.push(args), level: 'info' } as unknown as FastifyBaseLogger
    const parent = { child: () => (made++, child) } as unknown as FastifyBaseLogger
    const log = lazyChildLogger(parent, { reqId: 'r1' }, {})
    expect(made).toBe(0)
    log.warn({ n: 1 }, 'first')
    log.warn('second')
    expect(made).toBe(1)
    expect(lines).toEqual([[{ n: 1 }, 'first'], ['second']])
  })

  it("gives a request's lines its request id", async () => {
    const lines: Record<string, unknown>[] = []
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>)
        done()
      },
    })
    const app = Fastify({
      logger: { level: 'info', stream },
      logController: new LogController({ disableRequestLogging: true }),
      childLoggerFactory: lazyChildLogger,
    })
    app.get('/', async (request) => {
      request.log.warn({ what: 'thing' }, 'logged')
      return 'ok'
    })
    const res = await app.inject({ method: 'GET', url: '/' })
    expect(res.body).toBe('ok')
    expect(lines).toEqual([expect.objectContaining({ reqId: 'req-1', what: 'thing', msg: 'logged', level: 40 })])
    await app.close()
  })
})
