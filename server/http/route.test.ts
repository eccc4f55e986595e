import Fastify from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { emptyEnvelope, envelope } from './envelope.ts'
import { apiPlugin, apiRoutes } from './route.ts'

async function build() {
  const app = Fastify({ logger: false })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.decorateRequest('principal', null)
  // Signed in as an admin (the auth plugin's work, server/http/auth.ts).
  app.addHook('onRequest', async (request) => {
    request.principal = { memberId: 7, role: 'admin', roles: ['admin'], sessionId: 1 }
  })
  const seen: { config: unknown; schema: unknown }[] = []
  app.addHook('onRoute', (route) => {
    if (route.method === 'HEAD') return
    seen.push({ config: route.config, schema: route.schema })
  })
  const r = apiRoutes(app, { tags: ['things'], auth: 'admin' })
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
      auth: 'none',
      idempotent: true,
      body: z.object({ name: z.string() }),
      response: envelope(z.object({ name: z.string(), by: z.number().nullable() })),
      msg: '已创建',
    },
    async (request, memberId) => ({ name: request.body.name, by: memberId }),
  )
  r.post('/nothing', { summary: 'Do nothing', auth: 'none', response: emptyEnvelope }, async () => {})
  r.raw.get(
    '/thing.txt',
    { summary: 'A thing as text', auth: 'none', response: { 200: z.string() } },
    async (_request, reply) => reply.type('text/plain').send('thing'),
  )
  await app.register(
    apiPlugin({ tags: ['plugged'] }, (p, opts: { word: string }) => {
      p.get('/word', { summary: 'A word', response: envelope(z.string()) }, async () => opts.word)
    }),
    { word: 'hello' },
  )
  await app.ready()
  return { app, seen }
}

describe('apiRoutes', () => {
  it('wraps what the handler returns in the envelope, with the msg the spec gives; the handler gets the member id', async () => {
    const { app } = await build()
    const get = await app.inject({ method: 'GET', url: '/thing?id=2' })
    expect(get.json()).toEqual({ code: 200, msg: 'on', data: { id: 2, on: true } })
    const post = await app.inject({ method: 'POST', url: '/thing', payload: { name: 'x' } })
    expect(post.json()).toEqual({ code: 200, msg: '已创建', data: { name: 'x', by: 7 } })
    await app.close()
  })

  it('answers an empty envelope when the handler returns nothing', async () => {
    const { app } = await build()
    const res = await app.inject({ method: 'POST', url: '/nothing' })
    expect(res.json()).toEqual({ code: 200, msg: 'ok', data: {} })
    await app.close()
  })

  it('validates the request with the zod schemas', async () => {
    const { app } = await build()
    const res = await app.inject({ method: 'POST', url: '/thing', payload: {} })
    expect(res.statusCode).toBe(400)
    await app.close()
  })

  it('lets a raw route answer in its own protocol', async () => {
    const { app } = await build()
    const res = await app.inject({ method: 'GET', url: '/thing.txt' })
    expect(res.body).toBe('thing')
    await app.close()
  })

  it('declares a plugin from its options', async () => {
    const { app } = await build()
    const res = await app.inject({ method: 'GET', url: '/word' })
    expect(res.json()).toEqual({ code: 200, msg: 'ok', data: 'hello' })
    await app.close()
  })

  it('adds the plugin tags, the token security and auth; a route may replace each', async () => {
    const { app, seen } = await build()
    const [get, post] = seen
    expect(get!.config).toMatchObject({ auth: 'admin' })
    expect(get!.schema).toMatchObject({ tags: ['things'], security: [{ token: [] }], summary: 'A thing' })
    expect(get!.schema).not.toHaveProperty('description')
    expect(post!.config).toMatchObject({ auth: 'none', idempotent: true })
    expect(post!.schema).toMatchObject({ tags: ['other'], summary: 'Make a thing', description: 'Public' })
    expect(post!.schema).not.toHaveProperty('security')
    await app.close()
  })
})
