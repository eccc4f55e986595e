import crypto from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { AppError } from './app-error.ts'
import { Codes } from './codes.ts'

const TOKEN_HEADER = 'zxb-token'

export type Role = 'member' | 'staff' | 'admin'

export interface Principal {
  memberId: number
  role: Role
  sessionId: number
}

/** What a route needs: `none` (default, a token is read if sent), `required`, `staff` or `admin`. */
export type AuthMode = 'none' | 'required' | 'staff' | 'admin'

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null
    /** Why there is no principal although a token was sent. */
    authProblem: 'unknown' | 'expired' | null
  }
  interface FastifyContextConfig {
    auth?: AuthMode
  }
}

export function hashToken(token: string) {
  return crypto.createHash('sha256').update(token).digest('hex')
}

/** 256 random bits, URL-safe. */
export function newToken() {
  return crypto.randomBytes(32).toString('base64url')
}

/** What a token stands for: the signed-in principal, or why there is none. */
export interface TokenResolution {
  principal: Principal | null
  problem: 'unknown' | 'expired' | null
}

/** Looks a token up (the sessions module's `resolveToken`, passed in by the composition root). */
export type ResolveToken = (token: string) => Promise<TokenResolution>

const rank: Record<Role, number> = { member: 0, staff: 1, admin: 2 }

/**
 * Reads `ZXB-Token` on every request. Routes that need a member say so with `config.auth`; a missing or revoked
 * token answers 301, an expired one 504 (spec section 8), and too low a role 403.
 */
export const authPlugin = fp(async (app: FastifyInstance, opts: { resolve: ResolveToken }) => {
  app.decorateRequest('principal', null)
  app.decorateRequest('authProblem', null)

  app.addHook('onRequest', async (request) => {
    const header = request.headers[TOKEN_HEADER]
    const token = (Array.isArray(header) ? header[0] : header)?.trim()
    if (!token) return
    const { principal, problem } = await opts.resolve(token)
    request.principal = principal
    request.authProblem = problem
  })

  // Before validation, so an anonymous request with a bad body is told to log in rather than about the body.
  app.addHook('preValidation', async (request) => {
    const mode = request.routeOptions.config.auth ?? 'none'
    if (mode === 'none') return
    requireRole(request, mode === 'required' ? 'member' : mode)
  })
})

/** The signed-in member, or the 301/504/403 error a route with that requirement answers. */
export function requireRole(request: FastifyRequest, role: Role = 'member'): Principal {
  const p = request.principal
  if (!p) throw new AppError(request.authProblem === 'expired' ? Codes.SessionExpired : Codes.NotLoggedIn)
  if (rank[p.role] < rank[role]) throw new AppError(Codes.Forbidden)
  return p
}
