import crypto from 'node:crypto'

/**
 * WeChat Pay API v3 cryptography, as the official documentation describes it: request signatures
 * (WECHATPAY2-SHA256-RSA2048), the JSAPI paySign, answer and notification signatures (Wechatpay-* headers) and
 * AEAD_AES_256_GCM resource decryption. Pure functions; the adapter and the simulator both use them, and
 * wechatpay-crypto.test.ts pins them to vectors made with the committed test keys.
 */

const AUTH_SCHEMA = 'WECHATPAY2-SHA256-RSA2048'

/** The signed message: every line followed by "\n", the last one included. */
export function signatureMessage(lines: readonly string[]) {
  return lines.map((l) => `${l}\n`).join('')
}

/** SHA256withRSA (PKCS#1 v1.5), base64: the signature every WeChat Pay v3 and Alipay RSA2 message carries. */
export function rsaSign(privateKey: crypto.KeyLike, message: string) {
  return crypto.createSign('RSA-SHA256').update(message, 'utf8').sign(privateKey, 'base64')
}

export function rsaVerify(publicKey: crypto.KeyLike, message: string, signature: string) {
  try {
    return crypto.createVerify('RSA-SHA256').update(message, 'utf8').verify(publicKey, signature, 'base64')
  } catch {
    return false
  }
}

/** 32 characters from a CSPRNG: WeChat accepts up to 32 for nonce_str. */
export function nonceStr() {
  return crypto.randomBytes(16).toString('hex').toUpperCase()
}

export interface RequestSignInput {
  mchid: string
  serialNo: string
  privateKey: crypto.KeyLike
  method: string
  /** Path and query as sent, e.g. "/v3/pay/transactions/out-trade-no/ZX1?mchid=1900000109". */
  url: string
  /** The exact body sent ("" for GET). */
  body: string
  timestamp: number
  nonce: string
}

/** The Authorization header of a merchant request. */
export function requestAuthorization(input: RequestSignInput) {
  const message = signatureMessage([
    input.method.toUpperCase(),
    input.url,
    String(input.timestamp),
    input.nonce,
    input.body,
  ])
  const signature = rsaSign(input.privateKey, message)
  return `${AUTH_SCHEMA} mchid="${input.mchid}",nonce_str="${input.nonce}",signature="${signature}",timestamp="${input.timestamp}",serial_no="${input.serialNo}"`
}

/** The fields of an Authorization header, or null when it is not a WECHATPAY2-SHA256-RSA2048 one. */
export function parseAuthorization(header: string | undefined) {
  if (!header?.startsWith(`${AUTH_SCHEMA} `)) return null
  const fields: Record<string, string> = {}
  for (const m of header.slice(AUTH_SCHEMA.length + 1).matchAll(/(\w+)="([^"]*)"/g)) fields[m[1]!] = m[2]!
  const { mchid, nonce_str, signature, timestamp, serial_no } = fields
  if (!mchid || !nonce_str || !signature || !timestamp || !serial_no) return null
  return { mchid, nonce: nonce_str, signature, timestamp, serialNo: serial_no }
}

export interface JsapiPayParams {
  appId: string
  timeStamp: string
  nonceStr: string
  package: string
  signType: 'RSA'
  paySign: string
}

/** What WeixinJSBridge.invoke('getBrandWCPayRequest', …) takes, signed with the merchant key. */
export function jsapiPayParams(input: {
  appId: string
  prepayId: string
  privateKey: crypto.KeyLike
  timestamp: number
  nonce: string
}): JsapiPayParams {
  const pkg = `prepay_id=${input.prepayId}`
  const timeStamp = String(input.timestamp)
  const paySign = rsaSign(input.privateKey, signatureMessage([input.appId, timeStamp, input.nonce, pkg]))
  return { appId: input.appId, timeStamp, nonceStr: input.nonce, package: pkg, signType: 'RSA', paySign }
}

/** Checks a paySign the way WeChat's client does (the simulator's bridge uses it). */
export function verifyPaySign(params: Omit<JsapiPayParams, 'signType'>, merchantPublicKey: crypto.KeyLike) {
  return rsaVerify(
    merchantPublicKey,
    signatureMessage([params.appId, params.timeStamp, params.nonceStr, params.package]),
    params.paySign,
  )
}

/** The Wechatpay-* headers WeChat Pay puts on answers and notifications. */
export interface WechatpaySignedHeaders {
  timestamp: string
  nonce: string
  signature: string
  serial: string
}

export function readSignedHeaders(
  headers: Record<string, string | string[] | undefined>,
): WechatpaySignedHeaders | null {
  const get = (name: string) => {
    const v = headers[name] ?? headers[name.toLowerCase()]
    return Array.isArray(v) ? v[0] : v
  }
  const timestamp = get('wechatpay-timestamp')
  const nonce = get('wechatpay-nonce')
  const signature = get('wechatpay-signature')
  const serial = get('wechatpay-serial')
  if (!timestamp || !nonce || !signature || !serial) return null
  return { timestamp, nonce, signature, serial }
}

/** Signs an answer or a notification body as WeChat Pay does (used by the simulator). */
export function signResponse(input: {
  privateKey: crypto.KeyLike
  serial: string
  body: string
  timestamp: number
  nonce: string
}) {
  return {
    'Wechatpay-Timestamp': String(input.timestamp),
    'Wechatpay-Nonce': input.nonce,
    'Wechatpay-Serial': input.serial,
    'Wechatpay-Signature': rsaSign(
      input.privateKey,
      signatureMessage([String(input.timestamp), input.nonce, input.body]),
    ),
    'Wechatpay-Signature-Type': AUTH_SCHEMA,
  }
}

export interface WechatpayVerifierKeys {
  /** Platform certificates by serial (the older scheme: /v3/certificates). */
  certificates: { serial: string; publicKey: crypto.KeyObject }[]
  /** The WeChat Pay public key and its id (PUB_KEY_ID_…), the scheme WeChat moved new merchants to. */
  publicKey: { id: string; key: crypto.KeyObject } | null
}

export type VerifyFailure = 'bad_signature' | 'bad_timestamp'

/** A signed answer or notification whose timestamp is this many seconds off our clock (either way) is refused. */
const MAX_SKEW_SECONDS = 300

/**
 * Verifies Wechatpay-* headers over a body: the serial picks the WeChat Pay public key (PUB_KEY_ID_…) or a
 * platform certificate, and the timestamp must be less than five minutes off our clock (either way): exactly 300 s
 * is refused, as WeChat Pay's own SDKs refuse it (wechatpay-java and wechatpay-apache-httpclient compare the
 * difference in whole minutes with `>= 5`).
 */
export function verifyWechatpaySignature(
  keys: WechatpayVerifierKeys,
  headers: WechatpaySignedHeaders | null,
  body: string,
  now: Date,
): { ok: true } | { ok: false; reason: VerifyFailure; detail: string } {
  if (!headers) return { ok: false, reason: 'bad_signature', detail: 'missing Wechatpay-* headers' }
  if (!/^\d{1,12}$/.test(headers.timestamp))
    return { ok: false, reason: 'bad_timestamp', detail: 'timestamp is not a number' }
  const skew = Math.abs(now.getTime() / 1000 - Number(headers.timestamp))
  if (skew >= MAX_SKEW_SECONDS)
    return { ok: false, reason: 'bad_timestamp', detail: `timestamp ${Math.round(skew)} s off` }
  let key: crypto.KeyObject | undefined
  if (headers.serial.startsWith('PUB_KEY_ID_'))
    key = keys.publicKey?.id === headers.serial ? keys.publicKey.key : undefined
  else key = keys.certificates.find((c) => c.serial.toUpperCase() === headers.serial.toUpperCase())?.publicKey
  if (!key) return { ok: false, reason: 'bad_signature', detail: `unknown serial ${headers.serial.slice(0, 64)}` }
  const message = signatureMessage([headers.timestamp, headers.nonce, body])
  if (!rsaVerify(key, message, headers.signature))
    return { ok: false, reason: 'bad_signature', detail: 'signature does not match' }
  return { ok: true }
}

export interface EncryptedResource {
  algorithm: string
  ciphertext: string
  nonce: string
  associated_data?: string
  original_type?: string
}

/** AEAD_AES_256_GCM with the APIv3 key: ciphertext is base64 of the encrypted bytes followed by the 16-byte tag. */
export function decryptResource(resource: EncryptedResource, apiV3Key: string): string {
  if (resource.algorithm !== 'AEAD_AES_256_GCM') throw new Error(`unsupported algorithm ${resource.algorithm}`)
  const data = Buffer.from(resource.ciphertext, 'base64')
  if (data.length < 17) throw new Error('ciphertext too short')
  const decipher = crypto.createDecipheriv(
    'aes-256-gcm',
    Buffer.from(apiV3Key, 'utf8'),
    Buffer.from(resource.nonce, 'utf8'),
  )
  decipher.setAuthTag(data.subarray(data.length - 16))
  decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'))
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8')
}

/** The other direction, for the simulator. */
export function encryptResource(
  plaintext: string,
  apiV3Key: string,
  nonce: string,
  associatedData: string,
  originalType: string,
): EncryptedResource {
  const cipher = crypto.createCipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'))
  cipher.setAAD(Buffer.from(associatedData, 'utf8'))
  const encrypted = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()])
  return {
    algorithm: 'AEAD_AES_256_GCM',
    ciphertext: encrypted.toString('base64'),
    nonce,
    associated_data: associatedData,
    original_type: originalType,
  }
}
