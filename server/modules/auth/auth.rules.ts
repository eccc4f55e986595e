import crypto from 'node:crypto'

/** The limits of spec section 4 and issue 2, in one place. */
export const SmsRules = {
  codeTtlMs: 5 * 60_000,
  maxWrongAttempts: 5,
  resendGapMs: 60_000,
  perPhonePerHour: 5,
  perPhonePerDay: 10,
  failedLoginsPerDay: 10,
} as const

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
