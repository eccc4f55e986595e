/**
 * Field rules shared by the forms (spec 5). Each returns the trimmed value and, when it fails, the exact message
 * to show. The login popup uses the phone and code rules; the generic set serves the lead and sign-up forms.
 */

const PHONE_PATTERN = /^1[3-9]\d{9}$/
export const PHONE_MAX_LENGTH = 11
export const CODE_MAX_LENGTH = 4

const LoginMessages = {
  phoneRequired: '请输入手机号',
  phoneInvalid: '手机号格式错误',
  codeRequired: '请输入验证码',
} as const

export interface Checked {
  value: string
  error: string | null
}

/** Phone (spec 5): required, then 11 digits starting 1[3-9], after trimming. */
export function checkPhone(raw: string | null | undefined): Checked {
  const value = (raw ?? '').trim()
  if (!value) return { value, error: LoginMessages.phoneRequired }
  if (!PHONE_PATTERN.test(value)) return { value, error: LoginMessages.phoneInvalid }
  return { value, error: null }
}

/** SMS code (spec 5): required after trimming. Its correctness is the server's to judge. */
export function checkCode(raw: string | null | undefined): Checked {
  const value = (raw ?? '').trim()
  return { value, error: value ? null : LoginMessages.codeRequired }
}

/**
 * Which login field a failed send-code or login answer points at (spec 8): 401 and 402 are about the phone,
 * 405 and 406 about the code.
 */
export function fieldForLoginCode(code: number): 'phone' | 'code' | null {
  if (code === 401 || code === 402) return 'phone'
  if (code === 405 || code === 406) return 'code'
  return null
}

/** Keeps what an input may hold: the value cut to its maximum length (pasted text included). */
export function limitLength(raw: string, max: number): string {
  return raw.slice(0, max)
}

/**
 * What a digits-only field keeps of typed or pasted text (issue 10 §6): the digits, without the +86 country
 * prefix of a pasted number, so "+86 138-0013-8000" becomes "13800138000".
 */
export function digitsOnly(raw: string): string {
  const digits = raw.replace(/\D/g, '')
  return /^\s*(\+|00)86/.test(raw) ? digits.replace(/^(00)?86/, '') : digits
}

// The generic validator set of spec 5.
export const isEmail = (v: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim())
export const isPhone = (v: string) => PHONE_PATTERN.test(v.trim())
/** Landline with optional area code and extension: 010-12345678, 0755-1234567-89. */
export const isLandline = (v: string) => /^(0\d{2,3}-?)?[1-9]\d{6,7}(-\d{1,6})?$/.test(v.trim())
export const isUrl = (v: string) => {
  try {
    const u = new URL(v.trim())
    return u.protocol === 'http:' || u.protocol === 'https:'
  } catch {
    return false
  }
}
/** A real calendar date written YYYY-MM-DD (or with slashes). */
export const isDate = (v: string) => {
  const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(v.trim())
  if (!m) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(Date.UTC(y, mo - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d
}
export const isNumber = (v: string) => /^-?\d+(\.\d+)?$/.test(v.trim())
export const isDigits = (v: string) => /^\d+$/.test(v.trim())
/** Mainland resident id card: 18 characters with the ISO 7064 MOD 11-2 check digit. */
export const isIdCard = (v: string) => {
  const id = v.trim().toUpperCase()
  if (!/^\d{17}[\dX]$/.test(id)) return false
  if (!isDate(`${id.slice(6, 10)}-${id.slice(10, 12)}-${id.slice(12, 14)}`)) return false
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
  const sum = weights.reduce((acc, w, i) => acc + w * Number(id[i]), 0)
  return '10X98765432'[sum % 11] === id[17]
}
/** Length in characters (a Chinese character counts as one). */
export const isLength = (v: string, min: number, max: number) => {
  const n = [...v.trim()].length
  return n >= min && n <= max
}
export const isInRange = (v: string | number, min: number, max: number) => {
  const n = typeof v === 'number' ? v : Number(v.trim())
  return v !== '' && Number.isFinite(n) && n >= min && n <= max
}

export const NICKNAME_MAX = 20

/** Nickname: 1 to 20 characters after trimming. */
export function checkNickname(raw: string | null | undefined): Checked {
  const value = (raw ?? '').trim()
  if (!value) return { value, error: '请输入昵称' }
  if (!isLength(value, 1, NICKNAME_MAX)) return { value, error: `昵称最多 ${NICKNAME_MAX} 个字` }
  return { value, error: null }
}
