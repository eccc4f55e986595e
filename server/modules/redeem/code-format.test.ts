import { describe, expect, it } from 'vitest'
import { CODE_ALPHABET, codeHasher, groupCode, newCode, parseCode } from './code-format.ts'

describe('redeem code format', () => {
  it('uses 31 characters without look-alikes (no 0/O, 1/I/L)', () => {
    expect(CODE_ALPHABET).toHaveLength(31)
    for (const c of '01OIL') expect(CODE_ALPHABET).not.toContain(c)
  })

  it('makes 12-character codes that parse back, grouped 4-4-4, whatever the case, spaces and dashes', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 2000; i++) {
      const code = newCode()
      expect(code).toMatch(/^[2-9A-HJKMNP-Z]{12}$/)
      seen.add(code)
      const grouped = groupCode(code)
      expect(grouped).toMatch(/^\w{4}-\w{4}-\w{4}$/)
      expect(parseCode(grouped)).toEqual({ ok: true, code })
      expect(parseCode(` ${grouped.toLowerCase().replaceAll('-', ' ')} `)).toEqual({ ok: true, code })
      expect(parseCode(code.slice(0, 6) + '—' + code.slice(6))).toEqual({ ok: true, code })
    }
    expect(seen.size).toBe(2000)
  })

  it('tells every single wrong character and every swap of two characters apart (a typo, not a wrong code)', () => {
    for (let n = 0; n < 50; n++) {
      const code = newCode()
      for (let i = 0; i < 12; i++) {
        for (const c of CODE_ALPHABET) {
          if (c === code[i]) continue
          expect(parseCode(code.slice(0, i) + c + code.slice(i + 1))).toEqual({ ok: false, reason: 'check' })
        }
        for (let j = i + 1; j < 12; j++) {
          if (code[i] === code[j]) continue
          const swapped = [...code]
          ;[swapped[i], swapped[j]] = [swapped[j]!, swapped[i]!]
          expect(parseCode(swapped.join(''))).toEqual({ ok: false, reason: 'check' })
        }
      }
    }
  })

  it('refuses what is not a code at all (length, look-alike characters)', () => {
    expect(parseCode('ABCD')).toEqual({ ok: false, reason: 'shape' })
    expect(parseCode('0000-0000-0000')).toEqual({ ok: false, reason: 'shape' })
    expect(parseCode('')).toEqual({ ok: false, reason: 'shape' })
  })

  it('hashes under the secret: another secret gives another hash', () => {
    const code = newCode()
    const a = codeHasher('a'.repeat(32))(code)
    expect(a).toBe(codeHasher('a'.repeat(32))(code))
    expect(a).not.toBe(codeHasher('b'.repeat(32))(code))
    expect(a).not.toContain(code)
  })
})
