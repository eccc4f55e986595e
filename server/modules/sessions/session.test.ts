import { describe, expect, it } from 'vitest'
import { grantRoles, makeMember } from '#tests/support/media-fixtures.ts'
import { useTestDatabase } from '#tests/support/database.ts'
import { createTokenResolver, endSession, resolveToken, SESSION_TTL_SECONDS } from './session.service.ts'

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

  it('remembers a role for a few seconds but reads the session every time', async () => {
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
