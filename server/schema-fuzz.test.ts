import { describe, expect, it } from 'vitest'
import { useCommerceApp } from '#server/modules/payments/testing.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'

/**
 * Issue 12: every endpoint fuzzed from its own schema. The routes and their JSON schemas come from the app's
 * OpenAPI document (generated from the routes' zod schemas), so a new endpoint is fuzzed without touching this file.
 * Each operation gets a bounded set of requests — its schema's valid-looking baseline, nothing, extra fields, wrong
 * types, missing fields, huge strings and numbers, unicode edge cases, deep nesting, odd path parameters — sent by a
 * signed-in admin (so handlers run past the sign-in check). Every answer must be below 500 and, when JSON, the
 * envelope `{ code, msg, data }` with a message a person can read (Chinese) whenever it is not a success.
 */

type Schema = {
  type?: string | string[]
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  enum?: unknown[]
  const?: unknown
  anyOf?: Schema[]
  oneOf?: Schema[]
  allOf?: Schema[]
  minimum?: number
  maximum?: number
  minLength?: number
  minItems?: number
  default?: unknown
  format?: string
}
type Parameter = { in: 'query' | 'path' | 'header'; name: string; required?: boolean; schema: Schema }
type Operation = {
  parameters?: Parameter[]
  requestBody?: { content: Record<string, { schema: Schema }> }
}

/** Provider protocols (their answers are not our envelope) and the provider simulators. */
const notOurEnvelope = /^\/api\/(pay\/notify\/|(douyin|ksxd|wechatShop)\/notify$)/

const typeOf = (s: Schema): string | undefined => {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null')
  if (s.type) return s.type
  if (s.properties) return 'object'
  const alt = s.anyOf ?? s.oneOf ?? s.allOf
  return alt ? typeOf(alt.find((a) => a.type !== 'null') ?? alt[0]!) : undefined
}
const pick = (s: Schema): Schema => {
  const alt = s.anyOf ?? s.oneOf
  if (alt) return pick(alt.find((a) => a.type !== 'null') ?? alt[0]!)
  if (s.allOf) return Object.assign({}, ...s.allOf.map(pick)) as Schema
  return s
}

/** A value that looks valid for the schema (it may still fail a pattern or a refinement; that is fine). */
function baseline(raw: Schema, depth = 0): unknown {
  const s = pick(raw)
  if (s.const !== undefined) return s.const
  if (s.enum?.length) return s.enum[0]
  if (s.default !== undefined) return s.default
  switch (typeOf(s)) {
    case 'integer':
    case 'number':
      return Math.min(Math.max(1, s.minimum ?? 1), s.maximum ?? 1)
    case 'boolean':
      return true
    case 'array':
      return s.minItems && s.items && depth < 4
        ? Array.from({ length: s.minItems }, () => baseline(s.items!, depth + 1))
        : []
    case 'object': {
      const out: Record<string, unknown> = {}
      if (depth < 4) for (const [k, v] of Object.entries(s.properties ?? {})) out[k] = baseline(v, depth + 1)
      return out
    }
    default:
      return s.format === 'date-time' ? '2026-11-25T00:00:00Z' : 'a'.repeat(Math.max(2, s.minLength ?? 2))
  }
}

const unicode = [
  'a\u0000b',
  '\uD800',
  '😀'.repeat(40),
  'a\u202Eb\u2066c',
  '\uFEFF\u200B',
  'ｆｕｌｌ　ｗｉｄｔｈ',
  'e\u0301\u0301\u0301',
  "'; drop table members; --",
  '<img src=x onerror=alert(1)>',
  '%00%ff',
  '\u0085\u2028',
]
const hugeNumbers = [1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 31) - 1, 1.5, -1, 0]

/** Values of the wrong kind for a schema. */
function wrongTypes(s: Schema): unknown[] {
  switch (typeOf(pick(s))) {
    case 'integer':
    case 'number':
      return ['abc', { a: 1 }, [1, 2], true, null]
    case 'boolean':
      return ['yes', 2, {}]
    case 'array':
      return ['x', { 0: 1 }, 5]
    case 'object':
      return ['x', [1], 7]
    default:
      return [12345, { a: 'b' }, ['x'], false, null]
  }
}

function deepNest(levels: number): unknown {
  let v: unknown = 'x'
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { a: v }
  return v
}

interface Case {
  name: string
  path: Record<string, string>
  query: Record<string, unknown>
  body?: unknown
  rawQuery?: string
}

/** The bounded cases for one operation. */
function casesFor(op: Operation): Case[] {
  const params = op.parameters ?? []
  const pathParams = params.filter((p) => p.in === 'path')
  const queryParams = params.filter((p) => p.in === 'query')
  const bodySchema = op.requestBody?.content['application/json']?.schema
  const path = Object.fromEntries(pathParams.map((p) => [p.name, String(baseline(p.schema))]))
  const query = Object.fromEntries(queryParams.map((p) => [p.name, baseline(p.schema)]))
  const body = bodySchema ? (baseline(bodySchema) as Record<string, unknown>) : undefined
  const fields = bodySchema ? Object.entries(pick(bodySchema).properties ?? {}) : []
  const cases: Case[] = [{ name: 'baseline', path, query, body }]
  const withBody = (name: string, b: unknown) => cases.push({ name, path, query, body: b })
  const withQuery = (name: string, q: Record<string, unknown>) => cases.push({ name, path, query: q, body })

  if (bodySchema) {
    withBody('empty body', {})
    withBody('extra fields', { ...body, extra_field: 'x', __proto__x: { a: 1 }, constructor: 'x' })
    withBody('body is an array', [body])
    withBody('body is a string', 'just a string')
    withBody('deep nesting', { ...body, [fields[0]?.[0] ?? 'a']: deepNest(200) })
    withBody(
      'unicode in every string',
      mapStrings(body, (i) => unicode[i % unicode.length]!),
    )
    withBody(
      'huge strings',
      mapStrings(body, () => 'x'.repeat(200_000)),
    )
    withBody(
      'huge numbers',
      mapNumbers(body, (i) => hugeNumbers[i % hugeNumbers.length]!),
    )
    withBody(
      'huge negative numbers',
      mapNumbers(body, () => -1e308),
    )
    fields.slice(0, 6).forEach(([name, schema], i) => {
      const wrong = wrongTypes(schema)
      withBody(`wrong type ${name}`, { ...body, [name]: wrong[i % wrong.length] })
      const { [name]: _dropped, ...rest } = body ?? {}
      withBody(`missing ${name}`, rest)
    })
  }
  if (queryParams.length) {
    withQuery('no query', {})
    withQuery('extra query', { ...query, extra_field: 'x' })
    withQuery(
      'unicode query',
      mapStrings(query, (i) => unicode[(i + 1) % unicode.length]!),
    )
    withQuery(
      'huge query',
      mapStrings(query, () => 'q'.repeat(6000)),
    )
    withQuery(
      'wrong-type query',
      Object.fromEntries(
        queryParams.map((p, i) => [
          p.name,
          typeOf(p.schema) === 'string' ? ['a', 'b'] : ['abc', '1e999', '-0x10', '1.5'][i % 4],
        ]),
      ),
    )
    withQuery('huge numbers in query', Object.fromEntries(queryParams.map((p) => [p.name, '99999999999999999999999'])))
  }
  for (const odd of ['0', '-1', '99999999999999999999', 'abc', '1.5', '%E2%80%AE1', '%F0%9F%98%80', 'x'.repeat(300)]) {
    if (pathParams.length)
      cases.push({ name: `path ${odd}`, path: Object.fromEntries(pathParams.map((p) => [p.name, odd])), query, body })
  }
  return cases
}

function mapStrings(value: unknown, f: (i: number) => string): Record<string, unknown> {
  let i = 0
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return f(i++)
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    return v
  }
  return (walk(value ?? {}) ?? {}) as Record<string, unknown>
}

function mapNumbers(value: unknown, f: (i: number) => number): Record<string, unknown> {
  let i = 0
  const walk = (v: unknown): unknown => {
    if (typeof v === 'number') return f(i++)
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    return v
  }
  return (walk(value ?? {}) ?? {}) as Record<string, unknown>
}

function urlOf(template: string, c: Case) {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => c.path[name] ?? '1')
  const search = new URLSearchParams()
  for (const [k, v] of Object.entries(c.query)) {
    if (v === undefined) continue
    for (const one of Array.isArray(v) ? v : [v])
      search.append(k, typeof one === 'object' && one !== null ? JSON.stringify(one) : String(one))
  }
  const qs = search.toString()
  return qs ? `${path}?${qs}` : path
}

describe('every endpoint, fuzzed from its schema', () => {
  const { t } = useCommerceApp()

  it('answers no 500, and every error in the envelope with a readable Chinese message', async () => {
    const doc = (await t().app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, Operation>>
    }>()
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
    )
    expect(operations.length).toBeGreaterThan(100)
    const problems: string[] = []
    let sent = 0
    for (const { path, method, op } of operations) {
      if (notOurEnvelope.test(path)) continue
      // A fresh admin session per operation: a fuzzed logout must not end the next operation's session.
      const admin = await makeMember(t().database.db, 'admin')
      for (const c of casesFor(op)) {
        const withBody = method !== 'GET' && method !== 'HEAD' && method !== 'DELETE'
        const res = await t().app.inject({
          method: method as 'GET',
          url: urlOf(path, c),
          headers: { 'zxb-token': admin.token, ...(withBody ? { 'content-type': 'application/json' } : {}) },
          ...(withBody ? { payload: JSON.stringify(c.body ?? {}) } : {}),
        })
        sent++
        const where = `${method} ${path} (${c.name})`
        if (res.statusCode >= 500) {
          problems.push(`${where}: ${res.statusCode} ${res.body.slice(0, 200)}`)
          continue
        }
        if (!String(res.headers['content-type'] ?? '').includes('application/json')) continue
        let body: { code?: unknown; msg?: unknown; data?: unknown }
        try {
          body = res.json()
        } catch {
          problems.push(`${where}: JSON content type but not JSON`)
          continue
        }
        if (typeof body.code !== 'number' || typeof body.msg !== 'string' || !('data' in body))
          problems.push(`${where}: not the envelope: ${res.body.slice(0, 200)}`)
        else if (body.code !== 200 && !/[\u4e00-\u9fff]/.test(body.msg))
          problems.push(`${where}: message not readable: ${body.code} ${body.msg}`)
      }
    }
    expect(sent).toBeGreaterThan(1000)
    expect(problems).toEqual([])
  }, 180_000)
})
