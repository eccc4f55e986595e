import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { tokenMark } from '#shared/session-mark.ts'
import type { ResolveToken } from './auth.ts'

/**
 * The session cookie of server-rendered member pages (docs/decisions/2026-11-26-member-session-cookie.md): the
 * login token, HttpOnly, SameSite=Lax, path `/`, living as long as the token. Only the page renderer reads it
 * (`pageViewer`, for page GETs and React Router's `.data` loads); the API never does: `/api` stays bearer-token
 * only (server/http/auth.ts reads the ZXB-Token header alone), so the cookie opens no cross-site write.
 */
export const SESSION_COOKIE = 'zx_session'

declare module 'fastify' {
  interface FastifyRequest {
    /** What this request does to the session cookie: set it to a session just issued, or clear it. */
    sessionCookie: { token: string; maxAgeSeconds: number } | 'clear' | null
  }
}

/** This request issued a session (a sign-in, a merge, the cookie asked for): its answer sets the cookie. */
export function setSessionCookie(request: FastifyRequest, session: { token: string; expire_in: number }) {
  request.sessionCookie = { token: session.token, maxAgeSeconds: session.expire_in }
}

/** This request ended the browser's session (logout, account deleted): its answer clears the cookie. */
export function signedOut(request: FastifyRequest) {
  request.sessionCookie = 'clear'
}

/** The Set-Cookie that clears it, on a page's raw answer (React Router writes that one itself). */
const CLEAR = `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`

function tokenHeader(request: FastifyRequest) {
  const value = request.headers['zxb-token']
  return (Array.isArray(value) ? value[0] : value)?.trim()
}

/**
 * Sets and clears the cookie on API answers: set after a successful sign-in (`setSessionCookie`), and on any
 * successful answer to a call whose ZXB-Token is live but is not what the cookie carries (a browser signed in before
 * the cookie existed, or whose cookie was lost, gets it on its next call, for as long as the session has left);
 * cleared after a logout (`signedOut`) and whenever the API refused the very token the cookie carries (revoked,
 * expired: the browser forgets it on that 301/504 answer too). `https`: the public address is HTTPS, or this is
 * production, where TLS may end at a proxy (the cookie is also Secure on any request that came over HTTPS). An answer
 * that sets or clears the cookie is `private, no-store`: the cookie is a bearer token, never for a shared cache.
 */
export const sessionCookiePlugin = fp(async (app: FastifyInstance, opts: { https: boolean }) => {
  app.decorateRequest('sessionCookie', null)
  app.addHook('onSend', (request, reply, payload, done) => {
    const carried = request.cookies[SESSION_COOKIE]
    const bearer = tokenHeader(request)
    const expiresAt = request.principal?.expiresAt
    let change = request.sessionCookie
    if (!change && bearer && expiresAt && carried !== bearer)
      change = { token: bearer, maxAgeSeconds: Math.floor((expiresAt.getTime() - Date.now()) / 1000) }
    if (change && change !== 'clear') {
      if (reply.statusCode < 300 && change.maxAgeSeconds > 0) {
        reply.setCookie(SESSION_COOKIE, change.token, {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: opts.https || request.protocol === 'https',
          maxAge: change.maxAgeSeconds,
        })
        reply.header('cache-control', 'private, no-store')
      }
    } else if (carried !== undefined && (change === 'clear' || (request.authProblem !== null && carried === bearer))) {
      reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax' })
      reply.header('cache-control', 'private, no-store')
    }
    done(null, payload)
  })
})

/** Who a server-rendered page is for: the member of the session cookie, read only when a loader asks. */
export interface PageViewer {
  /** The member (and the mark of the cookie's token, tokenMark) when the cookie names a live session, else null. */
  member(): Promise<{ memberId: number; mark: string } | null>
}

/** The viewer of a page nobody is signed in to (cached public pages, non-GET requests). */
export const ANONYMOUS_VIEWER: PageViewer = { member: async () => null }

/**
 * The viewer of one page request (GET or HEAD; the caller decides): the cookie's session is looked up once, the
 * first time a loader asks. A page rendered for a member is answered `Cache-Control: private, no-store`, so no
 * shared cache keeps it; a cookie whose session has ended is cleared in the same answer.
 */
export function pageViewer(request: FastifyRequest, reply: FastifyReply, resolve: ResolveToken): PageViewer {
  const token = request.cookies[SESSION_COOKIE]
  if (!token) return ANONYMOUS_VIEWER
  let found: Promise<{ memberId: number; mark: string } | null> | undefined
  return {
    member: () =>
      (found ??= resolve(token).then(({ principal }) => {
        if (!principal) {
          reply.raw.appendHeader('set-cookie', CLEAR)
          reply.raw.setHeader('cache-control', 'private, no-store')
          return null
        }
        reply.raw.setHeader('cache-control', 'private, no-store')
        return { memberId: principal.memberId, mark: tokenMark(token) }
      })),
  }
}
