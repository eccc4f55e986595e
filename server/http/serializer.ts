import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod'
import { isSharedValue } from './public-cache.ts'

/** An API answer: the envelope of server/http/envelope.ts. */
interface Envelope {
  code: unknown
  msg: unknown
  data: unknown
}

const isEnvelope = (payload: unknown): payload is Envelope =>
  typeof payload === 'object' && payload !== null && 'data' in payload

/**
 * Answers are checked against the route's response schema and written as JSON (fastify-type-provider-zod), except
 * that an envelope around a value a public cache holds (a course list page, server/http/public-cache.ts) is
 * encoded once per cached value: such a value never changes, so its JSON is kept beside it (by identity, for as
 * long as the value lives) instead of being encoded again on every hit. For a page of 20 course cards, encoding
 * was the largest cost of a cached answer, and it grows with the page.
 */
export const serializerCompiler: typeof zodSerializerCompiler = (route) => {
  const encode = zodSerializerCompiler(route)
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
