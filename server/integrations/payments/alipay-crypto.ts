import type crypto from 'node:crypto'
import { rsaSign, rsaVerify } from './wechatpay-crypto.ts'

/**
 * Alipay open-platform RSA2 signing, as documented for alipay.trade.wap.pay and the async notifications: the
 * parameters sorted by name, empty ones left out, joined as k=v with "&" (values not URL-encoded), signed
 * SHA256withRSA. Pure functions, shared by the adapter and the simulator; alipay-crypto.test.ts pins them.
 */

export type Params = Record<string, string | undefined>

/** The string Alipay signs: `sign` (and, for notifications, `sign_type`) left out. */
export function signContent(params: Params, exclude: readonly string[] = ['sign']) {
  return Object.keys(params)
    .filter((k) => !exclude.includes(k) && params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&')
}

export function signParams(params: Params, privateKey: crypto.KeyLike) {
  return rsaSign(privateKey, signContent(params))
}

/** A request's signature (the gateway checks it with the app's public key; sign_type is part of the content). */
export function verifyRequestParams(params: Params, publicKey: crypto.KeyLike) {
  return Boolean(params.sign) && rsaVerify(publicKey, signContent(params, ['sign']), params.sign!)
}

/** An async notification's signature: sign and sign_type are both left out of the content. */
export function verifyNotificationParams(params: Params, publicKey: crypto.KeyLike) {
  if (!params.sign || (params.sign_type && params.sign_type !== 'RSA2')) return false
  return rsaVerify(publicKey, signContent(params, ['sign', 'sign_type']), params.sign)
}

/**
 * Alipay signs an API answer over the exact JSON text of its `<method>_response` member. Returns that text, or
 * null when the body does not have it.
 */
export function responseSignedText(body: string, responseKey: string): string | null {
  const marker = `"${responseKey}"`
  const at = body.indexOf(marker)
  if (at < 0) return null
  let i = body.indexOf(':', at + marker.length)
  if (i < 0) return null
  i++
  while (body[i] === ' ' || body[i] === '\n' || body[i] === '\r' || body[i] === '\t') i++
  if (body[i] !== '{') return null
  const start = i
  let depth = 0
  let inString = false
  for (; i < body.length; i++) {
    const c = body[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{') depth++
    else if (c === '}' && --depth === 0) return body.slice(start, i + 1)
  }
  return null
}

/** The response key of a method: alipay.trade.query → alipay_trade_query_response. */
export function responseKey(method: string) {
  return `${method.replaceAll('.', '_')}_response`
}

/**
 * Alipay's timestamp ("yyyy-MM-dd HH:mm:ss" in Beijing time, as `beijingDateTime` of #shared/time.ts writes it)
 * read back; null when malformed.
 */
export function parseAlipayTime(value: string | undefined): Date | null {
  if (!value || !/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(value)) return null
  const t = Date.parse(`${value.replace(' ', 'T')}+08:00`)
  return Number.isNaN(t) ? null : new Date(t)
}
