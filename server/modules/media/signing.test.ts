import { describe, expect, it } from 'vitest'
import { signedQuery, verifySigned } from './signing.ts'

const secret = 'a-test-secret-that-is-long-enough-000'
const claims = { videoId: 50001, memberId: 100002, exp: 2_000_000_000, lim: 30 }
const params = (q: string) => Object.fromEntries(new URLSearchParams(q))

describe('signed playback URLs', () => {
  it('verifies its own signature until it expires', () => {
    const p = params(signedQuery(secret, claims))
    expect(verifySigned(secret, 50001, p, claims.exp - 1)).toEqual({ ok: true, claims })
    expect(verifySigned(secret, 50001, p, claims.exp)).toEqual({ ok: false, problem: 'expired' })
  })

  it('carries full access as the absence of lim', () => {
    const p = params(signedQuery(secret, { ...claims, lim: null }))
    expect(p.lim).toBeUndefined()
    expect(verifySigned(secret, 50001, p, 0)).toMatchObject({ ok: true, claims: { lim: null } })
  })

  it.each([
    ['another video', (p: Record<string, string>) => p, 50002],
    ['another member', (p: Record<string, string>) => ({ ...p, mid: '100003' }), 50001],
    ['anonymous instead of the member', (p: Record<string, string>) => ({ ...p, mid: '0' }), 50001],
    ['a later expiry', (p: Record<string, string>) => ({ ...p, exp: String(claims.exp + 3600) }), 50001],
    ['a longer preview', (p: Record<string, string>) => ({ ...p, lim: '600' }), 50001],
    ['no preview limit', (p: Record<string, string>) => ({ mid: p.mid!, exp: p.exp!, sig: p.sig! }), 50001],
    ['a truncated signature', (p: Record<string, string>) => ({ ...p, sig: p.sig!.slice(0, 10) }), 50001],
    ['no signature', (p: Record<string, string>) => ({ mid: p.mid!, exp: p.exp!, lim: p.lim! }), 50001],
    ['a non-numeric member', (p: Record<string, string>) => ({ ...p, mid: '1e5' }), 50001],
  ])('refuses a URL changed to %s', (_name, change, videoId) => {
    const p = change(params(signedQuery(secret, claims)))
    expect(verifySigned(secret, videoId, p, 0)).toEqual({ ok: false, problem: 'invalid' })
  })

  it('refuses a signature made with another secret', () => {
    const p = params(signedQuery('another-secret-that-is-long-enough-1', claims))
    expect(verifySigned(secret, 50001, p, 0)).toEqual({ ok: false, problem: 'invalid' })
  })
})
