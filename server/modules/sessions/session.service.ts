import { LRUCache } from 'lru-cache'
import type { Db, DbOrTx } from '#server/db/database.ts'
import { hashToken, newToken, principalOf, type TokenResolution } from '#server/http/auth.ts'
import { markLoggedIn, memberRoles } from '#server/modules/members/members.service.ts'
import type { StaffRole } from '#shared/staff/roles.ts'
import {
  findMemberSessions,
  findSessionById,
  findSessionByTokenHash,
  insertSession,
  revokeMemberSessions,
  revokeSession,
} from './session.repository.ts'
import { createSessionCache, sessionsChanged, type SessionCache } from './session-cache.ts'

/** Tokens live 30 days (the login response's `expire_in`, in seconds). */
export const SESSION_TTL_SECONDS = 30 * 24 * 3600

/** Platform codes of spec section 9: 1 desktop, 2 mobile browser, 3 WeChat's browser. */
export const Platforms = { desktop: 1, mobile: 2, wechat: 3 } as const

/**
 * Starts a new session for a member: a fresh 256-bit token, stored only as its hash. Every login gets a new one.
 * Pass a transaction to make it part of a larger change (a login that also consumes a code).
 */
export async function issueSession(db: DbOrTx, memberId: number, platform: number, now: Date) {
  const token = newToken()
  await insertSession(db, {
    memberId,
    tokenHash: hashToken(token),
    platform: Object.values(Platforms).includes(platform as 1 | 2 | 3) ? platform : Platforms.mobile,
    // On the same clock as the expiry: a staff session's shorter life (resolveToken) counts from here.
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000),
  })
  await markLoggedIn(db, memberId, now)
  return { token, expire_in: SESSION_TTL_SECONDS, member_id: memberId }
}

/** Logs a session out: its token stops working at once. */
export async function endSession(db: DbOrTx, sessionId: number, now: Date) {
  sessionsChanged((await revokeSession(db, sessionId, now)).map((r) => r.tokenHash))
}

/**
 * SQL text, for a statement another module runs, that is true while session `sessionIdParam` is live at
 * `nowParam` (both parameter references such as `$9::int`): not revoked and not expired. A hot write puts it in its
 * own statement, so a logout on any instance counts at once without a lookup of its own (the progress save).
 */
export function liveSessionCondition(sessionIdParam: string, nowParam: string): string {
  return (
    `exists (select 1 from sessions live_session where live_session.id = ${sessionIdParam} ` +
    `and live_session.revoked_at is null and live_session.expires_at > ${nowParam})`
  )
}

/** Why a session is not live (`unknown`: revoked or gone, `expired`), or null when it is. */
export async function sessionProblem(db: DbOrTx, sessionId: number, now: Date): Promise<'unknown' | 'expired' | null> {
  const session = await findSessionById(db, sessionId)
  if (!session || session.revokedAt) return 'unknown'
  return session.expiresAt <= now ? 'expired' : null
}

/** What a token resolver remembers (createTokenResolver): members' staff roles, and sessions. */
interface Remembered {
  roles?: Pick<LRUCache<number, StaffRole[]>, 'get' | 'set'>
  sessions?: SessionCache
}

/** Staff sign-ins last this long from the sign-in (STAFF_SESSION_HOURS), however long the session was issued for. */
const DEFAULT_STAFF_SESSION_MS = 12 * 3600_000

/**
 * Looks a token up: the session by its hash (unique index), then its member's staff roles (primary key); either
 * from `remembered` when given and held there. `unknown` for a token no live session has, `expired` for one whose
 * session ran out, or for a staff member's session older than `staffSessionMs` (staff sessions expire sooner).
 */
export async function resolveToken(
  db: DbOrTx,
  token: string,
  now = new Date(),
  { roles, sessions }: Remembered = {},
  staffSessionMs = DEFAULT_STAFF_SESSION_MS,
): Promise<TokenResolution> {
  if (token.length < 20 || token.length > 100) return { principal: null, problem: 'unknown' }
  const lookup = (tokenHash: string) => findSessionByTokenHash(db, tokenHash)
  const tokenHash = hashToken(token)
  const session = await (sessions ? sessions.get(tokenHash, lookup) : lookup(tokenHash))
  if (!session || session.revokedAt) return { principal: null, problem: 'unknown' }
  if (session.expiresAt <= now) return { principal: null, problem: 'expired' }
  // Sessions are deleted with their member, so a missing member is at most a race with a deletion.
  const held = roles?.get(session.memberId) ?? (await memberRoles(db, session.memberId))
  if (!held) return { principal: null, problem: 'unknown' }
  roles?.set(session.memberId, held)
  if (held.length > 0 && session.createdAt.getTime() + staffSessionMs <= now.getTime())
    return { principal: null, problem: 'expired' }
  const principal = { ...principalOf(session.memberId, session.sessionId, held), expiresAt: session.expiresAt }
  return { principal, problem: null }
}

/** How long the request-time token lookup remembers a member's role. */
const ROLE_CACHE_MS = 5_000

/** How long, and how many, sessions the token lookup remembers (session-cache.ts). */
const SESSION_CACHE_MS = 10_000
const SESSION_CACHE_MAX = 50_000

/**
 * The token lookup server/http/auth.ts runs on every request that sends one. The session is remembered
 * (session-cache.ts): a logout, a revoke or a changed expiry counts at once in this process and within
 * milliseconds in every other (the cache bus), and expiry is checked on every request; while the bus is not
 * listening the session is read every time. The member's role is remembered for `roleTtlMs` (per process); a role
 * changed meanwhile (scripts/create-admin.ts promotes from another process) counts after at most that long. So a
 * signed-in request usually costs no query of its own.
 */
export function createTokenResolver(deps: { db: Db; now: () => Date; roleTtlMs?: number; staffSessionHours?: number }) {
  const roles = new LRUCache<number, StaffRole[]>({ max: 10_000, ttl: deps.roleTtlMs ?? ROLE_CACHE_MS })
  const sessions = createSessionCache({ max: SESSION_CACHE_MAX, ttlMs: SESSION_CACHE_MS })
  const staffMs = deps.staffSessionHours === undefined ? undefined : deps.staffSessionHours * 3600_000
  return (token: string) => resolveToken(deps.db, token, deps.now(), { roles, sessions }, staffMs)
}

/** A member's sessions, newest first, with their state at `now` (the operators' console). */
export async function memberSessions(db: DbOrTx, memberId: number, now: Date, limit = 50) {
  const rows = await findMemberSessions(db, memberId, limit)
  return rows.map((s) => ({
    id: s.id,
    platform: s.platform,
    created_at: s.createdAt.toISOString(),
    expires_at: s.expiresAt.toISOString(),
    revoked_at: s.revokedAt?.toISOString() ?? null,
    state: s.revokedAt ? ('revoked' as const) : s.expiresAt <= now ? ('expired' as const) : ('active' as const),
  }))
}

/**
 * Signs a member out: one session (`sessionId`) or every open one; their tokens stop working at once, in every
 * process (session-cache.ts). Returns how many sessions were revoked now.
 */
export async function revokeSessionsOf(db: DbOrTx, memberId: number, now: Date, sessionId?: number) {
  const revoked = await revokeMemberSessions(db, memberId, now, sessionId)
  sessionsChanged(revoked)
  return revoked.length
}
