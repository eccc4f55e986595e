import { isDeepStrictEqual } from 'node:util'
import fastJson from 'fast-json-stringify'
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { isSharedValue } from './public-cache.ts'

/** An API answer: the envelope of server/http/envelope.ts. */
interface Envelope {
  code: unknown
  msg: unknown
  data: unknown
}

type Encode = (payload: unknown) => string

const isEnvelope = (payload: unknown): payload is Envelope =>
  typeof payload === 'object' && payload !== null && 'data' in payload

/**
 * A writer compiled from the response schema (fast-json-stringify, Fastify's own serializer, from zod's JSON Schema
 * of what the route answers), or undefined when the schema has a part JSON Schema cannot say (a transform, a date),
 * which then keeps zod's check. Like zod's check, it writes only the fields the schema names: a handler that returns
 * one more field does not leak it. Unlike it, it checks no type: `verify` (the tests) holds every answer against zod.
 */
function compiledWriter(schema: z.ZodType): Encode | undefined {
  let json: Record<string, unknown>
  try {
    json = z.toJSONSchema(schema, { io: 'output', target: 'draft-07', unrepresentable: 'throw' })
  } catch {
    return undefined
  }
  return fastJson(forWriting(json) as Parameters<typeof fastJson>[0])
}

const primitive = new Set(['string', 'number', 'integer', 'boolean'])

/**
 * The JSON Schema zod gives, said the way fast-json-stringify writes best and as zod reads:
 * - zod says "a string or null" as `anyOf: [{ type: 'string' }, { type: 'null' }]`, which fast-json-stringify decides
 *   by running a validator on every value; `type: ['string', 'null']` says the same and is written directly.
 * - `additionalProperties: false` goes: fast-json-stringify writes only the properties a schema names anyway, but
 *   decides an `anyOf` (a nullable object, a union) by validating the value, and an object with a field more than
 *   its schema would then match no branch, where zod drops the field.
 */
function forWriting(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forWriting)
  if (typeof node !== 'object' || node === null) return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node))
    if (!(key === 'additionalProperties' && value === false)) out[key] = forWriting(value)
  const anyOf = out.anyOf
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const [a, b] = anyOf as Record<string, unknown>[]
    const isNull = (s: Record<string, unknown> | undefined) => s?.type === 'null' && Object.keys(s).length === 1
    const other = isNull(b) ? a : isNull(a) ? b : undefined
    if (other && typeof other.type === 'string' && primitive.has(other.type)) {
      delete out.anyOf
      Object.assign(out, other, { type: [other.type, 'null'] })
    }
  }
  return out
}

/**
 * The route's answers are written from its response schema: by a writer compiled from it where the schema can be
 * said in JSON Schema (nearly every route), else by zod's check and `JSON.stringify`
 * (fastify-type-provider-zod). With `verify` (the tests), every answer also goes through zod, which must accept it
 * and write the same JSON (optional fields may come in another order): the compiled writer checks no type, so the
 * test suite is where a handler that returns the wrong type fails.
 *
 * An envelope around a value a public cache holds (a course list page, server/http/public-cache.ts) is encoded once
 * per cached value: such a value never changes, so its JSON is kept beside it (by identity, for as long as the
 * value lives) instead of being encoded again on every hit.
 */
export function createSerializerCompiler({ verify }: { verify: boolean }): typeof zodSerializerCompiler {
  return (route) => {
    const checked = zodSerializerCompiler(route)
    // Compiled on the route's first answer: a few milliseconds per schema, which every start would pay for all of them.
    let writer: Encode | undefined | null = null
    const writerOf = () => (writer === null ? (writer = compiledWriter(route.schema as z.ZodType)) : writer)
    const encode: Encode = (payload) => {
      const fast = writerOf()
      if (!fast) return checked(payload)
      if (!verify) return fast(payload)
      const expected = checked(payload)
      const written = fast(payload)
      if (written !== expected && !isDeepStrictEqual(JSON.parse(written), JSON.parse(expected)))
        throw new Error(
          `${route.method} ${route.url}: the compiled writer wrote ${written.slice(0, 400)} where zod wrote ${expected.slice(0, 400)}`,
        )
      return written
    }
    const kept = new WeakMap<object, { code: unknown; msg: unknown; json: string }>()
    return (payload: unknown) => {
      if (!isEnvelope(payload) || !isSharedValue(payload.data)) return encode(payload)
      const { code, msg, data } = payload
      const known = kept.get(data)
      if (known && known.code === code && known.msg === msg) return known.json
      const json = encode(payload)
      kept.set(data, { code, msg, json })
      return json
    }
  }
}
