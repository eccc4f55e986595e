import crypto from 'node:crypto'
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import {
  can,
  reach,
  roleKind,
  STEP_UP_HEADER,
  type Permission,
  type Scope,
  type StaffRole,
} from '#shared/staff/roles.ts'
import { AppError } from './app-error.ts'
import { Codes } from './codes.ts'
import { hookRoutes } from './route-hooks.ts'
import type { StepUp } from './step-up.ts'

const TOKEN_HEADER = 'zxb-token'

export type Role = 'member' | 'staff' | 'admin'

export interface Principal {
  memberId: number
  /** The coarse kind (shared/staff/roles.ts roleKind): what `auth: 'staff' | 'admin'` compares. */
  role: Role
  /** The staff roles held (none for a learner): what `permission` checks with `can`. */
  roles: readonly StaffRole[]
  sessionId: number
  /** When the session ends (the page-render cookie lives as long: server/http/session-cookie.ts). */
  expiresAt?: Date
}

/** A principal from a member's staff roles. */
export function principalOf(memberId: number, sessionId: number, roles: readonly StaffRole[]): Principal {
  return { memberId, sessionId, roles, role: roleKind(roles) }
}

/**
 * How a route serves staff whose grant of its permission reaches only what they own (shared/staff/roles.ts
 * `reach`): `list` answers only their records (the handler reads `request.ownScope`); a function names the owner of
 * the record the request is about, checked with `can` once the request is validated. A route without one refuses
 * them.
 */
export type RouteScope = 'list' | ((request: FastifyRequest) => Promise<Scope>)

/** What a route needs: `none` (default, a token is read if sent), `required`, `staff` or `admin`. */
export type AuthMode = 'none' | 'required' | 'staff' | 'admin'

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null
    /** Why there is no principal although a token was sent. */
    authProblem: 'unknown' | 'expired' | null
    /** The member whose own records this request is limited to (a scoped grant, RouteScope); null: no limit. */
    ownScope: number | null
  }
  interface FastifyContextConfig {
    auth?: AuthMode
    /** A staff permission the caller must hold (shared/staff/roles.ts `can`); implies a staff sign-in. */
    permission?: Permission
    /**
     * The action also needs a fresh SMS confirmation: a step-up proof in `X-Step-Up` (server/http/step-up.ts);
     * 'export': only when the list is asked for as a file (`format=csv`).
     */
    stepUp?: boolean | 'export'
    scope?: RouteScope
    /** A staff read that the action log records like a change (server/http/staff-audit.ts). */
    auditRead?: boolean
  }
}

/** SHA-256 of a session token, hex: what the sessions table keeps (one-shot `crypto.hash`, on every request). */
export function hashToken(token: string) {
  return crypto.hash('sha256', token)
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
export const authPlugin = fp(async (app: FastifyInstance, opts: { resolve: ResolveToken; stepUp: StepUp }) => {
  app.decorateRequest('principal', null)
  app.decorateRequest('authProblem', null)
  app.decorateRequest('ownScope', null)

  // Hooks without `async` where most requests have nothing to wait for: an async hook costs each request a promise
  // and a turn of the microtask queue even when it returns at once.
  app.addHook('onRequest', (request, _reply, done) => {
    const token = header(request, TOKEN_HEADER)
    if (!token) return done()
    opts.resolve(token).then(({ principal, problem }) => {
      request.principal = principal
      request.authProblem = problem
      done()
    }, done)
  })

  // Before validation, so an anonymous request with a bad body is told to log in rather than about the body.
  app.addHook('preValidation', (request, _reply, done) => {
    const { auth: mode = 'none', permission, stepUp, scope } = request.routeOptions.config
    try {
      if (mode !== 'none') requireRole(request, mode === 'required' ? 'member' : mode)
      if (permission) requirePermission(request, permission, scope !== undefined)
      const stepping = stepUp === 'export' ? (request.query as { format?: unknown }).format === 'csv' : stepUp
      if (
        stepping &&
        !opts.stepUp.verify(header(request, STEP_UP_HEADER), hashToken(header(request, TOKEN_HEADER) ?? ''))
      )
        throw new AppError(Codes.StepUpRequired)
    } catch (err) {
      return done(err as Error)
    }
    done()
  })

  // A scoped caller's record, once the request is valid: theirs, or refused.
  const scoped = (route: RouteOptions) => Boolean(route.config?.permission) && typeof route.config?.scope === 'function'
  hookRoutes(app, 'preHandler', scoped, async (request) => {
    const { permission, scope } = request.routeOptions.config
    if (request.ownScope === null || !permission || typeof scope !== 'function') return
    if (!can(request.principal, permission, await scope(request)))
      throw new AppError(Codes.Forbidden, '只能查看和修改自己的课程')
  })
})

/** The signed-in member, or the 301/504/403 error a route with that requirement answers. */
export function requireRole(request: FastifyRequest, role: Role = 'member'): Principal {
  const p = request.principal
  if (!p) throw new AppError(request.authProblem === 'expired' ? Codes.SessionExpired : Codes.NotLoggedIn)
  if (rank[p.role] < rank[role]) throw new AppError(Codes.Forbidden)
  return p
}

/** A request header's first value, trimmed. */
function header(request: FastifyRequest, name: string) {
  const value = request.headers[name]
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined
}

/**
 * The signed-in staff member holding this permission, or the 301/504/403 error. A grant reaching only their own
 * records passes where the route is `scoped` (RouteScope), limiting the request to them (`ownScope`).
 */
function requirePermission(request: FastifyRequest, permission: Permission, scoped: boolean): Principal {
  const p = requireRole(request, 'staff')
  const how = reach(p, permission)
  if (how === 'all') return p
  if (how === 'own' && scoped) {
    request.ownScope = p.memberId
    return p
  }
  throw new AppError(Codes.Forbidden, '你的角色没有这项权限')
}
