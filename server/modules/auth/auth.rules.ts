import crypto from 'node:crypto'

/** The limits of spec section 4 and issue 2, in one place. */
export const SmsRules = {
  codeTtlMs: 5 * 60_000,
  maxWrongAttempts: 5,
  resendGapMs: 60_000,
  perPhonePerHour: 5,
  /**
   * A Beijing day's sends to one phone from one address: what one person asking for someone else's phone can use
   * up, which leaves the owner elsewhere able to sign in (issue 12: no whole-day lockout a stranger can trigger).
   */
  perPhoneAndAddressPerDay: 10,
  /** A Beijing day's sends to one phone from every address: the ceiling against SMS bombing and its cost. */
  perPhonePerDay: 30,
} as const

/** A growing delay: none for the first `free` failures, then `baseMs` doubling with each one, at most `maxMs`. */
export interface CoolDown {
  free: number
  baseMs: number
  maxMs: number
}

/**
 * Wrong codes slow sign-in down instead of locking it (issue 12): the failures of the last `windowMs` count, and
 * after a failure the next try must wait. Per phone and address the delay grows to a quarter of an hour, per
 * address (many phones tried from one place) likewise; per phone alone — the only key a stranger elsewhere can
 * push on — it stays under a minute, so nobody can lock another person out. Guessing is bounded by the code
 * itself: it dies after five wrong tries, and codes are limited per phone and address (SmsRules).
 */
export const SignInSlowdown = {
  windowMs: 3600_000,
  phoneAndAddress: { free: 5, baseMs: 30_000, maxMs: 15 * 60_000 },
  address: { free: 30, baseMs: 30_000, maxMs: 15 * 60_000 },
  phone: { free: 10, baseMs: 5_000, maxMs: 60_000 },
} as const satisfies Record<string, CoolDown | number>

/** How long after the last of `failures` failures the next try must wait (0: at once). */
function coolDownMs(failures: number, rule: CoolDown) {
  if (failures < rule.free) return 0
  return Math.min(rule.maxMs, rule.baseMs * 2 ** (failures - rule.free))
}

/** Recent failures per key: how many and the last one's time. */
export interface FailureCounts {
  phoneAndAddress: { count: number; lastAt: Date | null }
  address: { count: number; lastAt: Date | null }
  phone: { count: number; lastAt: Date | null }
}

/** The moment sign-in may be tried again for these failures, or null when it may be now. */
export function signInAllowedFrom(failures: FailureCounts, now: Date): Date | null {
  let until = 0
  for (const key of ['phoneAndAddress', 'address', 'phone'] as const) {
    const { count, lastAt } = failures[key]
    const wait = coolDownMs(count, SignInSlowdown[key])
    if (lastAt && wait > 0) until = Math.max(until, lastAt.getTime() + wait)
  }
  return until > now.getTime() ? new Date(until) : null
}

/** Four digits from the CSPRNG, leading zeros kept. */
export function newSmsCode() {
  return String(crypto.randomInt(0, 10_000)).padStart(4, '0')
}

/**
 * Codes are stored as an HMAC-SHA256 keyed with the server's pepper (SMS_CODE_PEPPER) over the purpose, the phone
 * and the code: a code read from the table is useless for another phone or purpose, and without the pepper the
 * table alone cannot be turned back into codes (four digits are 10,000 tries of a plain hash). What protects a
 * code from someone who has the pepper as well is its 5-minute life and the 5-try limit.
 *
 * Hashes written before the pepper (a plain SHA-256) need no migration: codes live 5 minutes, so at worst a code
 * sent in the minutes before the upgrade does not match and the member asks for a new one. Changing the pepper
 * has the same, equally short, effect.
 */
export function hashSmsCode(pepper: string, phone: string, purpose: string, code: string) {
  return crypto.createHmac('sha256', pepper).update(`${purpose}:${phone}:${code}`).digest('hex')
}

export function smsCodeMatches(storedHash: string, pepper: string, phone: string, purpose: string, code: string) {
  const a = Buffer.from(storedHash, 'hex')
  const b = Buffer.from(hashSmsCode(pepper, phone, purpose, code), 'hex')
  return a.length === b.length && crypto.timingSafeEqual(a, b)
}
