import crypto from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import type { Db } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { hookRoutes } from '#server/http/route-hooks.ts'
import { claimKey, findKey, releaseKey, saveKeyResponse, takeOverStaleKey } from './idempotency.repository.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answers a repeated `Idempotency-Key` with the first answer (routes that create orders or move money). */
    idempotent?: boolean
  }
  interface FastifyRequest {
    idempotencyKeyId: number | null
  }
}

const IDEMPOTENCY_HEADER = 'idempotency-key'
const keyPattern = /^[\w.:-]{8,128}$/
/** A first request that has not answered after this long died with its process: its key can be used again. */
const STALE_MS = 60_000

function requestHash(request: FastifyRequest) {
  return (
    crypto
      .createHash('sha256')
      // The URL as sent (not the route pattern): the same key on another refund number is another request.
      .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
      .digest('hex')
  )
}

/** The key store of the plugin: idempotency.repository.ts bound to the database (built in server/services-commerce.ts). */
export function createIdempotencyKeys(db: Db) {
  return {
    claim: (row: { memberId: number; key: string; requestHash: string; createdAt: Date }) => claimKey(db, row),
    find: (memberId: number, key: string) => findKey(db, memberId, key),
    takeOverStale: (id: number, createdAt: Date, now: Date) => takeOverStaleKey(db, id, createdAt, now),
    saveResponse: (id: number, response: { status: number; body: string }) => saveKeyResponse(db, id, response),
    release: (id: number) => releaseKey(db, id),
  }
}

type IdempotencyKeys = ReturnType<typeof createIdempotencyKeys>

/**
 * `Idempotency-Key` for the routes that say `config: { idempotent: true }` (after authentication): the first
 * request with a key runs and its answer is kept; a repeat gets that answer again (header Idempotent-Replayed),
 * a repeat while the first still runs gets 488, the same key on a different request 487. A 5xx answer is not
 * kept, so the client may retry. Keys are per member and kept for a day.
 */
export const idempotencyPlugin = fp(async (app: FastifyInstance, opts: { keys: IdempotencyKeys; now: () => Date }) => {
  app.decorateRequest('idempotencyKeyId', null)

  // Only the routes that say `idempotent` carry these hooks (hookRoutes).
  const idempotent = (route: RouteOptions) => route.config?.idempotent === true
  hookRoutes(app, 'preHandler', idempotent, async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.principal) return
    const header = request.headers[IDEMPOTENCY_HEADER]
    const key = Array.isArray(header) ? header[0] : header
    if (key === undefined) return
    if (!keyPattern.test(key))
      throw new AppError(Codes.BadRequest, 'Idempotency-Key 须为 8–128 个字母、数字或 . _ : -（Idempotency-Key）')
    const memberId = request.principal.memberId
    const hash = requestHash(request)
    const at = opts.now()
    const claimed = await opts.keys.claim({ memberId, key, requestHash: hash, createdAt: at })
    if (claimed !== null) {
      request.idempotencyKeyId = claimed
      return
    }
    const existing = await opts.keys.find(memberId, key)
    if (!existing) throw new AppError(Codes.RequestInProgress)
    if (existing.requestHash !== hash) throw new AppError(Codes.IdempotencyKeyReused)
    if (existing.response === null) {
      const stale = existing.createdAt.getTime() < at.getTime() - STALE_MS
      const taken = stale ? await opts.keys.takeOverStale(existing.id, existing.createdAt, at) : false
      if (!taken) throw new AppError(Codes.RequestInProgress)
      request.idempotencyKeyId = existing.id
      return
    }
    const stored = existing.response as { status: number; body: string }
    return reply
      .code(stored.status)
      .header('idempotent-replayed', 'true')
      .type('application/json; charset=utf-8')
      .send(stored.body)
  })

  hookRoutes(app, 'onSend', idempotent, async (request, reply, payload) => {
    const id = request.idempotencyKeyId
    if (id === null) return payload
    request.idempotencyKeyId = null
    if (reply.statusCode >= 500 || typeof payload !== 'string') await opts.keys.release(id)
    else await opts.keys.saveResponse(id, { status: reply.statusCode, body: payload })
    return payload
  })
})
