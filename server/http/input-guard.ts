import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { AppError } from './app-error.ts'
import { Codes } from './codes.ts'
import { fieldLabel } from '#shared/field-labels.ts'

/**
 * One guard for every input (issue 12, section 7). Control characters other than tab, line feed and carriage return
 * (C0, DEL and the C1 block) are refused with 400: PostgreSQL rejects NUL in text, and the others have no place in
 * a query, a path or a header. In a body only NUL is refused here: the fields with text rules refuse other control
 * characters with their own codes (nickname 460, note 475, spec), which this guard must not pre-empt.
 * Bidirectional embeddings, overrides, isolates and marks (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F) are
 * stripped from every string of the query, the path and a parsed body — names, nicknames, comments, notes, refund
 * reasons, operator text — so none is ever stored: "gnp.exe" with an override would display as "exe.png" (issue 12).
 * This is the one place that does it. A raw body (a provider's callback, parsed as a string for its signature) is
 * checked but never changed, nor are the bodies the local provider simulators verify signatures over.
 */
// eslint-disable-next-line no-control-regex
const controlChars = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/
const bidiControls = /[\u200E\u200F\u202A-\u202E\u2066-\u2069]/g
/** Signed bodies of the provider simulators (demo and tests only): their text must reach the signature check as sent. */
const signedBodies = /^\/__sim\//
// eslint-disable-next-line no-control-regex
const nul = /\u0000/
const maxDepth = 64

function refuse(where: string): never {
  const label = fieldLabel(where)
  throw new AppError(Codes.BadRequest, `${label ?? '提交的内容'}含有不允许的控制字符`, { field: where })
}

/** Checks every string under `value`, returning it with bidi controls stripped (objects are changed in place). */
function clean(value: unknown, where: string, depth = 0, body = false, strip = true): unknown {
  if (typeof value === 'string') {
    if ((body ? nul : controlChars).test(value)) refuse(where)
    return strip ? value.replace(bidiControls, '') : value
  }
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return value
  if (depth > maxDepth) throw new AppError(Codes.BadRequest, '请求内容嵌套过深')
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = clean(value[i], where, depth + 1, body, strip)
    return value
  }
  const record = value as Record<string, unknown>
  for (const key of Object.keys(record)) {
    if (controlChars.test(key)) refuse(where)
    // multipart fields (attachFieldsToBody is off) and other objects with getters are left as they are
    const descriptor = Object.getOwnPropertyDescriptor(record, key)
    if (descriptor && 'value' in descriptor && descriptor.writable)
      record[key] = clean(record[key], depth === 0 ? key : where, depth + 1, body, strip)
  }
  return value
}

function guard(request: FastifyRequest) {
  for (const [name, header] of Object.entries(request.headers)) {
    if (typeof header === 'string' && controlChars.test(header)) refuse(name)
  }
  const cookies = (request as { cookies?: Record<string, string | undefined> }).cookies
  if (cookies) {
    for (const [name, cookie] of Object.entries(cookies)) {
      if (typeof cookie === 'string' && controlChars.test(cookie)) refuse(name)
    }
  }
  if (request.params) clean(request.params, 'params')
  if (request.query) clean(request.query, 'query')
  if (typeof request.body === 'string') {
    if (nul.test(request.body)) refuse('body')
  } else if (request.body !== undefined) {
    request.body = clean(request.body, 'body', 0, true, !signedBodies.test(request.url))
  }
}

export const inputGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      guard(request)
    } catch (err) {
      return done(err as Error)
    }
    done()
  })
})
