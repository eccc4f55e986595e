import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { hashSmsCode, newSmsCode, smsCodeMatches } from './auth.rules.ts'

describe('SMS codes', () => {
  it('are 4 digits, leading zeros kept, and spread over the range', () => {
    const codes = Array.from({ length: 2000 }, newSmsCode)
    expect(codes.every((c) => /^\d{4}$/.test(c))).toBe(true)
    expect(new Set(codes).size).toBeGreaterThan(1500)
    expect(codes.some((c) => c.startsWith('0'))).toBe(true)
  })

  it('match only for the same pepper, phone, purpose and code', () => {
    const pepper = 'p'.repeat(32)
    const hash = hashSmsCode(pepper, '13800138000', 'login', '1234')
    expect(smsCodeMatches(hash, pepper, '13800138000', 'login', '1234')).toBe(true)
    expect(smsCodeMatches(hash, pepper, '13800138000', 'login', '1235')).toBe(false)
    expect(smsCodeMatches(hash, pepper, '13800138001', 'login', '1234')).toBe(false)
    expect(smsCodeMatches(hash, pepper, '13800138000', 'bind:1', '1234')).toBe(false)
    expect(smsCodeMatches(hash, 'q'.repeat(32), '13800138000', 'login', '1234')).toBe(false)
  })

  it('are keyed with the pepper: the hash is an HMAC, not the plain SHA-256 of what it covers', () => {
    const pepper = 'p'.repeat(32)
    const hash = hashSmsCode(pepper, '13800138000', 'login', '1234')
    expect(hash).not.toBe(crypto.createHash('sha256').update('login:13800138000:1234').digest('hex'))
    expect(hash).toBe(crypto.createHmac('sha256', pepper).update('login:13800138000:1234').digest('hex'))
  })
})
