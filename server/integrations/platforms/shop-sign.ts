import crypto from 'node:crypto'

// The signatures of the Kuaishou shop, Xiaohongshu Ark and WeChat Shop APIs and pushes, each checked against vectors
// made with our own test secrets (shop-sign.test.ts). Douyin's are in douyin-sign.ts.

/** Constant-time comparison of two strings (false when their lengths differ). */
export function sameText(a: string, b: string) {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && crypto.timingSafeEqual(x, y)
}

export type KuaishouSignMethod = 'MD5' | 'HMAC_SHA256'

/**
 * Kuaishou shop (快手电商开放平台, "API调用说明" §4): the request parameters except `sign` (access_token, appkey,
 * method, param, signMethod, timestamp, version), sorted by name and joined as `k=v&…`, then `&signSecret=<secret>`;
 * MD5 answers lowercase hex, HMAC_SHA256 (keyed by the sign secret) answers Base64 (the docs' Java sample).
 */
export function kuaishouSign(signSecret: string, params: Record<string, string | undefined>, m: KuaishouSignMethod) {
  const text = `${Object.keys(params)
    .filter((k) => k !== 'sign' && params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&')}&signSecret=${signSecret}`
  return m === 'MD5'
    ? crypto.createHash('md5').update(text).digest('hex')
    : crypto.createHmac('sha256', signSecret).update(text).digest('base64')
}

/** The AES key of Kuaishou's message push ("消息服务说明" §3.4: Base64, AES/CBC/PKCS5Padding, a zero IV). */
function kuaishouCipher(messageKey: string) {
  const key = Buffer.from(messageKey, 'base64')
  if (![16, 24, 32].includes(key.length)) throw new Error('KUAISHOU_MESSAGE_KEY is not a Base64 AES key')
  return { algorithm: `aes-${key.length * 8}-cbc`, key, iv: Buffer.alloc(16) }
}

/** A Kuaishou push body (Base64 ciphertext) as the platform sends it: the simulator and the tests use it. */
export function kuaishouEncryptPush(messageKey: string, plain: string) {
  const c = kuaishouCipher(messageKey)
  const cipher = crypto.createCipheriv(c.algorithm, c.key, c.iv)
  return Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]).toString('base64')
}

/**
 * The plain text of a Kuaishou push, or null when it does not decrypt with our key: Kuaishou's pushes carry no
 * signature, the encryption with the app's own key is what tells them genuine.
 */
export function kuaishouDecryptPush(messageKey: string, body: string) {
  try {
    const c = kuaishouCipher(messageKey)
    const decipher = crypto.createDecipheriv(c.algorithm, c.key, c.iv)
    return Buffer.concat([decipher.update(Buffer.from(body.trim(), 'base64')), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}

/**
 * Xiaohongshu Ark (小红书开放平台, common_controller): md5 of `<method>?appId=<appId>&timestamp=<timestamp>&version=
 * <version>` followed by the app secret, lowercase hex. The official page was not readable with our search tool;
 * this is the form public SDKs use (timestamp in seconds, version "2.0").
 */
export function xhsSign(appSecret: string, p: { method: string; appId: string; timestamp: string; version: string }) {
  const text = `${p.method}?appId=${p.appId}&timestamp=${p.timestamp}&version=${p.version}${appSecret}`
  return crypto.createHash('md5').update(text).digest('hex')
}

/**
 * A WeChat server push (微信小店 message push, the official-account scheme): sha1 of the token, timestamp and nonce
 * sorted as strings and joined, lowercase hex, sent as the `signature` query parameter.
 */
export function wechatPushSignature(token: string, timestamp: string, nonce: string) {
  return crypto.createHash('sha1').update([token, timestamp, nonce].sort().join('')).digest('hex')
}
