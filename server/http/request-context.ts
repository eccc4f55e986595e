import crypto from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { setSessionCookie } from './session-cookie.ts'

const VISITOR_COOKIE = 'zx_vid'

declare module 'fastify' {
  interface FastifyRequest {
    /** The promotion source (`sp`) and page address (`url`) the client sends with every call (spec section 3). */
    attribution: { sp: string; url?: string } | null
    /** Set by routes that sign someone in, so the new session's member is credited with the first touch. */
    signedInMemberId: number | null
  }
}

/** Where first touches are kept (server/modules/attribution, passed in by the composition root). */
export interface TouchRecorder {
  /** Records a first touch for the visitor and/or member; a later one changes nothing. */
  recordTouch(touch: { visitorId?: string; memberId?: number; sp: string; url?: string }): Promise<void>
  /** Credits a member who just signed in with the first touch of their browser, if it had one. */
  copyVisitorTouch(visitorId: string, memberId: number): Promise<void>
}

/**
 * Marks the request as signing in the session's member (credited with the browser's first touch) and, when it
 * issued a token, as setting the session cookie of server-rendered pages (server/http/session-cookie.ts); the
 * session. Every route that issues a token calls it.
 */
export function signedIn<S extends { member_id: number; token?: string; expire_in?: number }>(
  request: FastifyRequest,
  session: S,
): S {
  request.signedInMemberId = session.member_id
  if (session.token && session.expire_in)
    setSessionCookie(request, { token: session.token, expire_in: session.expire_in })
  return session
}

const spPattern = /^[\w.-]{1,64}$/

function pick(source: unknown, key: string): string | undefined {
  if (!source || typeof source !== 'object') return undefined
  const value = (source as Record<string, unknown>)[key]
  return typeof value === 'string' ? value : undefined
}

function readAttribution(request: FastifyRequest) {
  const sp = pick(request.query, 'sp') ?? pick(request.body, 'sp')
  if (!sp || !spPattern.test(sp)) return null
  const url = pick(request.query, 'url') ?? pick(request.body, 'url')
  return { sp, url: url?.slice(0, 500) }
}

/**
 * Records the first promotion source seen for each visitor (a cookie) and each member, after the response is
 * sent so it never slows a request down.
 */
export const requestContextPlugin = fp(
  async (app: FastifyInstance, opts: { touches: TouchRecorder; secureCookies: boolean }) => {
    app.decorateRequest('attribution', null)
    app.decorateRequest('signedInMemberId', null)
    // Before validation: body schemas strip keys they do not list, and sp/url may ride along on any body.
    app.addHook('preValidation', (request, reply, done) => {
      const touch = readAttribution(request)
      if (!touch) return done()
      request.attribution = touch
      if (!request.cookies[VISITOR_COOKIE]) {
        const visitorId = crypto.randomUUID()
        request.cookies[VISITOR_COOKIE] = visitorId
        reply.setCookie(VISITOR_COOKIE, visitorId, {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: opts.secureCookies,
          maxAge: 365 * 24 * 3600,
        })
      }
      done()
    })
    // Without `async`: nearly every request has nothing to record, and returns at once.
    app.addHook('onResponse', (request, _reply, done) => {
      const touch = request.attribution
      const visitorId = request.cookies[VISITOR_COOKIE]
      const memberId = request.signedInMemberId ?? request.principal?.memberId
      const recorded = touch
        ? opts.touches.recordTouch({ visitorId, memberId, sp: touch.sp, url: touch.url })
        : request.signedInMemberId && visitorId
          ? opts.touches.copyVisitorTouch(visitorId, request.signedInMemberId)
          : null
      if (!recorded) return done()
      recorded.catch((err: unknown) => request.log.warn({ err }, 'attribution not recorded')).finally(() => done())
    })
  },
)
