import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { registerCompression } from './compression.ts'
import { hookRoutes } from './route-hooks.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    marked?: boolean
  }
}

describe('hookRoutes', () => {
  async function build() {
    const app = Fastify()
    await registerCompression(app)
    const seen: { url: string; payload: string }[] = []
    hookRoutes(
      app,
      'onSend',
      (route) => route.config?.marked === true,
      async (request, _reply, payload) => {
        seen.push({ url: request.url, payload: typeof payload })
        return payload
      },
    )
    // Over 1 KB: compressed when the client accepts it.
    const big = { list: Array.from({ length: 100 }, (_, i) => ({ id: i, title: `第 ${i} 课` })) }
    app.get('/marked', { config: { marked: true } }, async () => big)
    app.get('/plain', async () => big)
    await app.ready()
    return { app, seen }
  }

  it('runs the hook on the routes it applies to only', async () => {
    const { app, seen } = await build()
    await app.inject({ method: 'GET', url: '/plain' })
    await app.inject({ method: 'GET', url: '/marked' })
    expect(seen.map((s) => s.url)).toEqual(['/marked'])
  })

  it('runs the hooks it placed in the order they were given, after the app-wide ones', async () => {
    const app = Fastify()
    const order: string[] = []
    const mark = (name: string) => async () => {
      order.push(name)
    }
    hookRoutes(app, 'preHandler', () => true, mark('first placed'))
    app.addHook('preHandler', mark('app-wide'))
    hookRoutes(app, 'preHandler', () => true, mark('second placed'))
    app.get('/', { preHandler: mark('the route its own') }, async () => 'ok')
    await app.inject({ method: 'GET', url: '/' })
    expect(order).toEqual(['app-wide', 'first placed', 'second placed', 'the route its own'])
  })

  it('runs an onSend hook before compression, on the answer as a string', async () => {
    const { app, seen } = await build()
    const res = await app.inject({ method: 'GET', url: '/marked', headers: { 'accept-encoding': 'br' } })
    expect(res.headers['content-encoding']).toBe('br')
    expect(seen).toEqual([{ url: '/marked', payload: 'string' }])
  })
})
