import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { listenForInvalidations, type CacheBusListener } from '#server/db/cache-bus.ts'
import { busListening, clearAllCaches, dropTagged } from '#server/http/public-cache.ts'
import { grantRoles, makeMember } from '#tests/support/media-fixtures.ts'
import { useTestDatabase } from '#tests/support/database.ts'
import { createSessionCache, sessionsChanged, sessionTag, type SessionRow } from './session-cache.ts'
import {
  createTokenResolver,
  endSession,
  resolveToken,
  revokeSessionsOf,
  SESSION_TTL_SECONDS,
} from './session.service.ts'
import { endMemberSessions } from './sessions-merge.service.ts'

describe('token lookup (sessions door)', () => {
  const database = useTestDatabase()

  it('finds the member and role of a live session; unknown, revoked and expired tokens say why not', async () => {
    const { db } = await database()
    const now = new Date()
    const staff = await makeMember(db, 'staff', now)
    const found = await resolveToken(db, staff.token, now)
    expect(found).toMatchObject({ principal: { memberId: staff.id, role: 'staff' }, problem: null })
    expect(await resolveToken(db, 'x'.repeat(43), now)).toEqual({ principal: null, problem: 'unknown' })
    expect(await resolveToken(db, 'short', now)).toEqual({ principal: null, problem: 'unknown' })
    const later = new Date(now.getTime() + SESSION_TTL_SECONDS * 1000 + 1)
    expect(await resolveToken(db, staff.token, later)).toEqual({ principal: null, problem: 'expired' })
    await endSession(db, found.principal!.sessionId, now)
    expect(await resolveToken(db, staff.token, now)).toEqual({ principal: null, problem: 'unknown' })
  })

  it('remembers a role for a few seconds; with no cache bus listening, reads the session every time', async () => {
    const { db } = await database()
    const now = new Date()
    const member = await makeMember(db, 'member', now)
    const resolve = createTokenResolver({ db, now: () => now, roleTtlMs: 100 })
    expect((await resolve(member.token)).principal?.role).toBe('member')
    await grantRoles(db, member.id, ['admin'])
    expect((await resolve(member.token)).principal?.role).toBe('member')
    await new Promise((r) => setTimeout(r, 150))
    const { principal } = await resolve(member.token)
    expect(principal?.role).toBe('admin')
    await endSession(db, principal!.sessionId, now)
    expect(await resolve(member.token)).toEqual({ principal: null, problem: 'unknown' })
  })
})

describe('remembered sessions (session-cache.ts)', () => {
  const database = useTestDatabase()
  let bus: CacheBusListener | undefined
  const log = { warn: () => {} }
  async function listen() {
    const { url } = await database()
    bus = await listenForInvalidations({
      url,
      onTags: dropTagged,
      onGap: clearAllCaches,
      onListening: busListening,
      log,
      retryMs: 50,
    })
  }
  beforeEach(listen)
  afterEach(async () => {
    await bus?.close()
    bus = undefined
  })

  /** The statements `fn` sends, and what it answered. */
  async function counted<T>(fn: () => Promise<T>) {
    const { pool } = await database()
    const spy = vi.spyOn(pool, 'query')
    try {
      const value = await fn()
      return { value, queries: spy.mock.calls.length }
    } finally {
      spy.mockRestore()
    }
  }

  /** Waits until `check` holds (the bus is asynchronous), at most a second. */
  async function withinASecond(check: () => Promise<boolean>) {
    for (const end = Date.now() + 1_000; Date.now() < end; await sleep(10)) if (await check()) return true
    return false
  }

  it('answers a known token from memory, without a query, and a logout here at once', async () => {
    const { db } = await database()
    const now = new Date()
    const member = await makeMember(db, 'member', now)
    const resolve = createTokenResolver({ db, now: () => now })
    const first = await counted(() => resolve(member.token))
    expect(first.value.principal?.memberId).toBe(member.id)
    expect(first.queries).toBeGreaterThan(0)
    const again = await counted(() => resolve(member.token))
    expect(again).toEqual({ value: first.value, queries: 0 })

    await endSession(db, first.value.principal!.sessionId, now)
    expect(await resolve(member.token)).toEqual({ principal: null, problem: 'unknown' })
  })

  it('checks the remembered expiry against the clock on every request', async () => {
    const { db } = await database()
    let now = new Date()
    const member = await makeMember(db, 'member', now)
    const resolve = createTokenResolver({ db, now: () => now })
    expect((await resolve(member.token)).problem).toBeNull()
    now = new Date(now.getTime() + SESSION_TTL_SECONDS * 1000 + 1)
    expect(await counted(() => resolve(member.token))).toEqual({
      value: { principal: null, problem: 'expired' },
      queries: 0,
    })
  })

  it('hears within a second of a session changed by another process or by hand', async () => {
    const { db, pool } = await database()
    const now = new Date()
    const [a, b] = [await makeMember(db, 'member', now), await makeMember(db, 'member', now)]
    const resolve = createTokenResolver({ db, now: () => now })
    for (const m of [a, b]) expect((await resolve(m.token)).principal?.memberId).toBe(m.id)

    await pool.query('update sessions set expires_at = $2 where member_id = $1', [a.id, new Date(now.getTime() - 1)])
    await pool.query('update sessions set revoked_at = $2 where member_id = $1', [b.id, now])
    expect(await withinASecond(async () => (await resolve(a.token)).problem === 'expired')).toBe(true)
    expect(await withinASecond(async () => (await resolve(b.token)).problem === 'unknown')).toBe(true)

    // A member deleted with their sessions (cascade) is forgotten too.
    const c = await makeMember(db, 'member', now)
    expect((await resolve(c.token)).principal?.memberId).toBe(c.id)
    await pool.query('delete from members where id = $1', [c.id])
    expect(await withinASecond(async () => (await resolve(c.token)).problem === 'unknown')).toBe(true)
  })

  it('forgets every session when the table is truncated (no row trigger fires then)', async () => {
    const { db, pool } = await database()
    const now = new Date()
    const member = await makeMember(db, 'member', now)
    const resolve = createTokenResolver({ db, now: () => now })
    expect((await counted(() => resolve(member.token))).value.principal?.memberId).toBe(member.id)
    expect((await counted(() => resolve(member.token))).queries).toBe(0)
    await pool.query('truncate sessions')
    expect(await withinASecond(async () => (await resolve(member.token)).problem === 'unknown')).toBe(true)
  })

  it('reads the session every time while the bus is not listening, and forgets everything after a gap', async () => {
    const { db } = await database()
    const now = new Date()
    const member = await makeMember(db, 'member', now)
    const resolve = createTokenResolver({ db, now: () => now })
    await resolve(member.token)
    await bus!.close()
    expect((await counted(() => resolve(member.token))).queries).toBeGreaterThan(0)
    expect((await counted(() => resolve(member.token))).queries).toBeGreaterThan(0)
    await listen()
    expect((await counted(() => resolve(member.token))).queries).toBeGreaterThan(0)
    expect((await counted(() => resolve(member.token))).queries).toBe(0)
  })
})

describe('revokes in this process count at once, before any notification', () => {
  // A bus that is listening but never delivers anything: only the marks the revokes leave can refuse the token.
  const database = useTestDatabase()
  beforeEach(() => busListening(true))
  afterEach(() => busListening(false))

  async function remembered() {
    const { db } = await database()
    const now = new Date()
    const member = await makeMember(db, 'member', now)
    const resolve = createTokenResolver({ db, now: () => now })
    const { principal } = await resolve(member.token)
    expect(principal?.memberId).toBe(member.id)
    return { db, now, member, resolve, sessionId: principal!.sessionId }
  }

  it('a logout', async () => {
    const { db, now, member, resolve, sessionId } = await remembered()
    await endSession(db, sessionId, now)
    expect(await resolve(member.token)).toEqual({ principal: null, problem: 'unknown' })
  })

  it('an operator signing out one session or all of a member’s (and an account deletion)', async () => {
    const one = await remembered()
    expect(await revokeSessionsOf(one.db, one.member.id, one.now, one.sessionId)).toBe(1)
    expect(await one.resolve(one.member.token)).toEqual({ principal: null, problem: 'unknown' })
    const all = await remembered()
    expect(await revokeSessionsOf(all.db, all.member.id, all.now)).toBe(1)
    expect(await all.resolve(all.member.token)).toEqual({ principal: null, problem: 'unknown' })
  })

  it('the bind-phone merge ending the absorbed member’s sessions', async () => {
    const { db, now, member, resolve } = await remembered()
    expect(await endMemberSessions(db, member.id, now)).toEqual({ sessions: 1 })
    expect(await resolve(member.token)).toEqual({ principal: null, problem: 'unknown' })
  })
})

describe('session cache (the rules it keeps)', () => {
  const row = (sessionId: number, memberId: number): SessionRow => ({
    sessionId,
    memberId,
    createdAt: new Date(),
    expiresAt: new Date(Date.now() + 60_000),
    revokedAt: null,
  })
  beforeEach(() => busListening(true))
  afterEach(() => busListening(false))

  it('does not keep a row read while a drop arrived: it may be the row before the change', async () => {
    const cache = createSessionCache({ max: 10, ttlMs: 60_000 })
    let release = () => {}
    const loads = vi.fn(async () => {
      await new Promise<void>((r) => (release = r))
      return row(1, 1)
    })
    const reading = cache.get('hash-a', loads)
    await sleep(0)
    dropTagged([sessionTag('hash-a')])
    release()
    await reading
    const again = cache.get('hash-a', loads)
    await sleep(0)
    release()
    await again
    expect(loads).toHaveBeenCalledTimes(2)
    await cache.get('hash-a', loads)
    expect(loads).toHaveBeenCalledTimes(2)
  })

  it('keeps the sessions this process revoked out of memory, although no drop has come yet', async () => {
    const cache = createSessionCache({ max: 10, ttlMs: 60_000 })
    const loads = { revoked: vi.fn(async () => row(101, 201)), other: vi.fn(async () => row(102, 202)) }
    await cache.get('hash-revoked', loads.revoked)
    await cache.get('hash-other', loads.other)
    sessionsChanged(['hash-revoked'])
    for (let i = 0; i < 3; i++) {
      await cache.get('hash-revoked', loads.revoked)
      await cache.get('hash-other', loads.other)
    }
    expect(loads.revoked).toHaveBeenCalledTimes(4)
    expect(loads.other).toHaveBeenCalledTimes(1)
  })

  it('remembers nothing for a while after a revoke too large to mark one by one', async () => {
    const cache = createSessionCache({ max: 10, ttlMs: 60_000 })
    const load = vi.fn(async () => row(301, 401))
    await cache.get('hash-bystander', load)
    await cache.get('hash-bystander', load)
    expect(load).toHaveBeenCalledTimes(1)
    sessionsChanged(Array.from({ length: 10_001 }, (_, i) => `hash-mass-${i}`))
    await cache.get('hash-bystander', load)
    await cache.get('hash-bystander', load)
    expect(load).toHaveBeenCalledTimes(3)
  })

  it('does not remember unknown tokens', async () => {
    const cache = createSessionCache({ max: 10, ttlMs: 60_000 })
    const loads = vi.fn(async () => null)
    await cache.get('hash-none', loads)
    await cache.get('hash-none', loads)
    expect(loads).toHaveBeenCalledTimes(2)
  })
})
