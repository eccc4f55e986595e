import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { envelope, ok } from './envelope.ts'
import { publicCache } from './public-cache.ts'
import { serializerCompiler } from './serializer.ts'

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
