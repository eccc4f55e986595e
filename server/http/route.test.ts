import Fastify from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { envelope } from './envelope.ts'
import { apiRoutes } from './route.ts'

async function build() {
  const app = Fastify({ logger: false })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  const seen: { config: unknown; schema: unknown }[] = []
  app.addHook('onRoute', (route) => {
    if (route.method === 'HEAD') return
    seen.push({ config: route.config, schema: route.schema })
  })
  const r = apiRoutes(app, { tags: ['things'], config: { auth: 'admin' } })
  r.get(
    '/thing',
    {
      summary: 'A thing',
      querystring: z.object({ id: z.coerce.number().int() }),
      response: envelope(z.object({ id: z.number(), on: z.boolean() })),
      msg: (d) => (d.on ? 'on' : 'off'),
    },
    async (request) => ({ id: request.query.id, on: request.query.id > 1, extra: 'stripped' }),
  )
  r.post(
    '/thing',
    {
      summary: 'Make a thing',
      description: 'Public',
      tags: ['other'],
      token: false,
      config: { auth: 'none' },
      body: z.object({ name: z.string() }),
      response: envelope(z.object({ name: z.string() })),
      msg: '已创建',
    },
    async (request) => ({ name: request.body.name }),
  )
  await app.ready()
  return { app, seen }
}

describe('apiRoutes', () => {
  it('wraps what the handler returns in the envelope, with the msg the spec gives', async () => {
    const { app } = await build()
    const get = await app.inject({ method: 'GET', url: '/thing?id=2' })
    expect(get.json()).toEqual({ code: 200, msg: 'on', data: { id: 2, on: true } })
    const post = await app.inject({ method: 'POST', url: '/thing', payload: { name: 'x' } })
    expect(post.json()).toEqual({ code: 200, msg: '已创建', data: { name: 'x' } })
    await app.close()
  })

  it('validates the request with the zod schemas', async () => {
    const { app } = await build()
    const res = await app.inject({ method: 'POST', url: '/thing', payload: {} })
    expect(res.statusCode).toBe(400)
    await app.close()
  })

  it('adds the plugin tags, the token security and config; a route may replace each', async () => {
    const { app, seen } = await build()
    const [get, post] = seen
    expect(get!.config).toMatchObject({ auth: 'admin' })
    expect(get!.schema).toMatchObject({ tags: ['things'], security: [{ token: [] }], summary: 'A thing' })
    expect(get!.schema).not.toHaveProperty('description')
    expect(post!.config).toMatchObject({ auth: 'none' })
    expect(post!.schema).toMatchObject({ tags: ['other'], summary: 'Make a thing', description: 'Public' })
    expect(post!.schema).not.toHaveProperty('security')
    await app.close()
  })
})
