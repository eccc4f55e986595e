import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { envelope, ok } from './envelope.ts'
import { publicCache } from './public-cache.ts'
import { createSerializerCompiler } from './serializer.ts'

const serializerCompiler = createSerializerCompiler({ verify: true })

const parse = (json: string) => JSON.parse(json) as { code: number; msg: string; data: { list: number[] } }

describe('serializerCompiler', () => {
  // A response schema that counts how often an answer is checked and encoded.
  function counted() {
    let encodes = 0
    const schema = envelope(
      z.object({
        list: z.array(z.number()).refine(() => {
          encodes++
          return true
        }),
      }),
    )
    const serialize = serializerCompiler({ schema, method: 'GET', url: '/test', httpStatus: '200' })
    return { serialize, encodes: () => encodes }
  }

  it('encodes a cached value once and answers its JSON again on every later hit', async () => {
    const { serialize, encodes } = counted()
    const cache = publicCache({ max: 10, ttlMs: 60_000, load: async (n: number) => ({ list: [n, n + 1] }) })
    const first = serialize(ok(await cache.get(1)))
    expect(JSON.parse(first)).toEqual({ code: 200, msg: 'ok', data: { list: [1, 2] } })
    expect(serialize(ok(await cache.get(1)))).toBe(first)
    expect(encodes()).toBe(1)
    // Another message, another value: encoded again.
    expect(parse(serialize(ok(await cache.get(1), 'done'))).msg).toBe('done')
    expect(serialize(ok(await cache.get(2)))).toContain('[2,3]')
    expect(encodes()).toBe(3)
  })

  it('encodes and checks every other answer each time', async () => {
    const { serialize, encodes } = counted()
    const data = { list: [1] }
    serialize(ok(data))
    data.list.push(2)
    expect(parse(serialize(ok(data))).data.list).toEqual([1, 2])
    expect(encodes()).toBe(2)
    // Values a cache does not keep (ttlMs 0) are fresh every time: not kept either.
    const uncached = publicCache({ max: 10, ttlMs: 0, load: async () => ({ list: [3] }) })
    const value = await uncached.get(1)
    serialize(ok(value))
    serialize(ok(value))
    expect(encodes()).toBe(4)
    expect(() => serialize(ok({ list: ['x'] }))).toThrow()
  })
})

describe('the compiled writer', () => {
  const Card = z.object({
    id: z.number().int(),
    title: z.string(),
    price_fen: z.number().int().nullable(),
    teacher: z.object({ name: z.string() }).nullable(),
    tags: z.array(z.string()),
    note: z.string().optional(),
    counts: z.record(z.string(), z.number()),
    kind: z.union([z.object({ live: z.literal(true), at: z.string() }), z.object({ live: z.literal(false) })]),
  })
  const schema = envelope(z.object({ list: z.array(Card) }))
  const route = { schema, method: 'GET', url: '/cards', httpStatus: '200' } as const
  const card = {
    id: 1,
    title: '水彩 "入门"\n第一课',
    price_fen: null,
    teacher: { name: '李老师', phone: '13800000000' },
    tags: ['水彩', 'PS'],
    counts: { views: 3 },
    kind: { live: true, at: '2026-11-29T08:00:00.000Z' },
    secret: 'not in the schema',
  }

  it('writes the bytes zod writes, and nothing the schema does not name', () => {
    const fast = createSerializerCompiler({ verify: false })(route)
    const checked = createSerializerCompiler({ verify: true })(route)
    const answers = [
      ok({ list: [card, { ...card, id: 2, price_fen: 990, teacher: null, note: '', kind: { live: false } }] }),
    ]
    for (const answer of answers) {
      const json = fast(answer)
      expect(JSON.parse(json)).toEqual(JSON.parse(checked(answer)))
      expect(json).not.toContain('secret')
      expect(json).not.toContain('13800000000')
    }
  })

  it('is held against zod in the tests: an answer of the wrong type is refused', () => {
    const checked = createSerializerCompiler({ verify: true })(route)
    expect(() => checked(ok({ list: [{ ...card, id: '1' }] }))).toThrow()
    // Without the check the compiled writer would have written it.
    const unchecked = createSerializerCompiler({ verify: false })(route)
    expect(unchecked(ok({ list: [{ ...card, id: '1' }] }))).toContain('"id":1,')
  })

  it("keeps zod's check for a schema JSON Schema cannot say", () => {
    const dated = envelope(z.object({ at: z.date() }))
    const serialize = createSerializerCompiler({ verify: false })({ ...route, schema: dated })
    expect(JSON.parse(serialize(ok({ at: new Date('2026-11-29T00:00:00Z') })))).toEqual({
      code: 200,
      msg: 'ok',
      data: { at: '2026-11-29T00:00:00.000Z' },
    })
    expect(() => serialize(ok({ at: 'yesterday' }))).toThrow()
  })
})
