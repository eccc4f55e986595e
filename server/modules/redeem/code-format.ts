import crypto from 'node:crypto'

// Redeem codes as people read, type and paste them (issue 14 §1): 12 characters from an alphabet without
// look-alikes (no 0/O, no 1/I/L), shown as three groups of four ("7KQ4-MX2D-9HTR"), accepted in any case with
// spaces or dashes anywhere. The last character is a check character, so a mistyped code is told apart from a code
// that does not exist before anything is looked up.

/** 31 characters: the digits 2–9 and the letters without I, L and O. A prime count makes the check below exact. */
export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ'
const BASE = CODE_ALPHABET.length
export const CODE_LENGTH = 12
const BODY_LENGTH = CODE_LENGTH - 1
const VALUE = new Map([...CODE_ALPHABET].map((c, i) => [c, i]))

/**
 * The check character: Σ (i+1)·vᵢ over the 11 body characters, mod 31, as the character that brings the sum to 0.
 * The weights 1…12 are distinct and non-zero mod the prime 31, so every single wrong character and every swap of
 * two characters (adjacent or not) changes the sum: those typos are always caught.
 */
function checkValue(body: readonly number[]) {
  let sum = 0
  for (let i = 0; i < body.length; i++) sum += (i + 1) * body[i]!
  // (12·c + sum) ≡ 0 (mod 31) ⇒ c ≡ −sum · 12⁻¹; 12·13 = 156 = 5·31 + 1, so 12⁻¹ ≡ 13.
  return (((-sum * 13) % BASE) + BASE) % BASE
}

/** A new random code in its canonical form (12 characters, no separators). */
export function newCode(): string {
  const bytes = crypto.randomBytes(BODY_LENGTH * 2)
  const body: number[] = []
  // Rejection sampling over 16-bit values keeps every character equally likely.
  const limit = 65536 - (65536 % BASE)
  for (let i = 0; body.length < BODY_LENGTH; i += 2) {
    if (i >= bytes.length) return newCode()
    const v = bytes.readUInt16BE(i)
    if (v < limit) body.push(v % BASE)
  }
  return [...body, checkValue(body)].map((v) => CODE_ALPHABET[v]).join('')
}

/** "7KQ4MX2D9HTR" → "7KQ4-MX2D-9HTR". */
export function groupCode(code: string) {
  return code.match(/.{1,4}/g)!.join('-')
}

export type ParsedCode =
  | { ok: true; code: string }
  /** `shape`: not 12 characters of the alphabet; `check`: the check character does not match (a typo). */
  | { ok: false; reason: 'shape' | 'check' }

/** What someone typed or pasted, as a canonical code: case, spaces and dashes do not matter. */
export function parseCode(input: string): ParsedCode {
  const code = input.toUpperCase().replace(/[\s\-_—–]+/g, '')
  if (code.length !== CODE_LENGTH || [...code].some((c) => !VALUE.has(c))) return { ok: false, reason: 'shape' }
  const values = [...code].map((c) => VALUE.get(c)!)
  if (checkValue(values.slice(0, BODY_LENGTH)) !== values[BODY_LENGTH]) return { ok: false, reason: 'check' }
  return { ok: true, code }
}

/** The keyed hash a code is stored and looked up under (HMAC-SHA-256 with the server's secret, base64url). */
export function codeHasher(secret: string) {
  const key = crypto.createHmac('sha256', secret).update('zixue redeem code v1').digest()
  return (code: string) => crypto.createHmac('sha256', key).update(code).digest('base64url')
}
