import crypto from 'node:crypto'

// Douyin's two signing schemes, each checked against vectors made with our own test secrets
// (douyin-sign.test.ts).

/**
 * The push signature of the Douyin open platform (life-service webhooks such as `life_trade_certificate_notify`):
 * hex sha1 over the app's client secret followed by the raw body, sent as `X-Douyin-Signature` (open-douyin docs,
 * "WebHooks接入 / 验签方式": "将应用的(client secret + 消息体)使用 sha1 哈希").
 */
export function douyinPushSignature(clientSecret: string, rawBody: string) {
  return crypto.createHash('sha1').update(clientSecret).update(rawBody).digest('hex')
}

/** Whether `header` is the push signature of `rawBody` (constant time). */
export function verifyDouyinPush(clientSecret: string, rawBody: string, header: string | undefined) {
  if (!header || !/^[0-9a-f]{40}$/i.test(header)) return false
  const expected = Buffer.from(douyinPushSignature(clientSecret, rawBody), 'hex')
  return crypto.timingSafeEqual(expected, Buffer.from(header.toLowerCase(), 'hex'))
}

/** JSON with every object's keys sorted, no spaces: the `param_json` form Doudian signs. */
export function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${sortedJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`
  return JSON.stringify(value)
}

export interface DoudianSigned {
  app_key: string
  method: string
  param_json: string
  timestamp: string
  v: '2'
}

/**
 * The request signature of the Douyin shop (抖店) open API: the app secret, then `app_key…method…param_json…
 * timestamp…v…` (names and values in that alphabetical order, nothing between them), then the app secret again,
 * hashed with HMAC-SHA256 keyed by the app secret (`sign_method=hmac-sha256`; the older md5 form hashes the same
 * string). Confirmed from public SDKs and write-ups quoting op.jinritemai.com; the official page itself was not
 * readable with our search tool.
 */
export function doudianSign(appSecret: string, p: DoudianSigned) {
  const text = `${appSecret}app_key${p.app_key}method${p.method}param_json${p.param_json}timestamp${p.timestamp}v${p.v}${appSecret}`
  return crypto.createHmac('sha256', appSecret).update(text).digest('hex')
}

/** Doudian's `timestamp` parameter: "YYYY-MM-DD HH:mm:ss" in Beijing time. */
export function doudianTimestamp(at: Date) {
  const b = new Date(at.getTime() + 8 * 3600_000).toISOString()
  return `${b.slice(0, 10)} ${b.slice(11, 19)}`
}
