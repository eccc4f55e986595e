import crypto from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { Delivery, Notifier } from '../notifier.ts'

// The WeChat Pay simulator's types and the state its parts share (../wechatpay-simulator.ts puts them together).

export interface WechatPaySimulatorOptions {
  mchid: string
  merchantSerial: string
  merchantPublicKey: crypto.KeyLike
  apiV3Key: string
  /** Sign answers and notifications with the WeChat Pay public key (PUB_KEY_ID_…) or the platform certificate. */
  signWith: 'public_key' | 'certificate'
  /** The platform certificate signing now; with its PEM it is listed by GET /v3/certificates. */
  platform: SimPlatform
  /** The certificate `rotatePlatformCertificate()` switches to. */
  nextPlatform?: SimPlatform
  publicKey: { id: string; privateKey: crypto.KeyLike }
  /** Where browsers reach this simulator (for h5_url, code_url and the bridge script). */
  publicBase: () => string
  now: () => Date
  fetch?: typeof globalThis.fetch
  retryDelaysMs?: readonly number[]
  /** How long a refund stays PROCESSING before it succeeds and is notified. */
  refundDelayMs?: number
}

interface SimPlatform {
  serial: string
  privateKey: crypto.KeyLike
  certificate?: string
}

type TradeState = 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND'

export interface SimTrade {
  outTradeNo: string
  appid: string
  mchid: string
  tradeType: 'JSAPI' | 'MWEB' | 'NATIVE'
  description: string
  total: number
  notifyUrl: string
  timeExpire: Date
  openid: string | null
  prepayId: string
  code: string
  state: TradeState
  transactionId: string | null
  successTime: Date | null
  refunded: number
}

export interface SimRefund {
  outRefundNo: string
  refundId: string
  outTradeNo: string
  amount: number
  status: 'PROCESSING' | 'SUCCESS' | 'ABNORMAL'
  notifyUrl: string | null
  createdAt: Date
  /** When it succeeded (the bill lists it that day). */
  successTime: Date | null
}

/** Test controls; the demo never changes them. */
interface SimFaults {
  /** Refuse new refunds with this error, e.g. 403 NOT_ENOUGH (the merchant's balance is short). */
  refundError: { status: number; code: string; message: string } | null
  /** Take refund requests but answer 500, as if the answer was lost on the way. */
  loseRefundAnswers: boolean
  /** Finish refunds without sending their notification. */
  silentRefunds: boolean
  /** How refunds end: SUCCESS, or ABNORMAL (the payer's account cannot take the money). */
  refundOutcome: 'SUCCESS' | 'ABNORMAL'
}

export interface WechatPaySimulator {
  trades: Map<string, SimTrade>
  refunds: Map<string, SimRefund>
  notifier: Notifier
  /** The merchant API calls received, oldest first (the last 1000): method and path without the mount prefix. */
  requests: { method: string; path: string }[]
  faults: SimFaults
  /** The serial answers and notifications are signed with now (certificate mode) and the serials listed. */
  platformSerial(): string
  /** Switches to `nextPlatform`, as WeChat Pay does when it renews its certificate: both stay listed. */
  rotatePlatformCertificate(): void
  /** Pays a held trade as if the member pressed "确认支付"; returns the notification delivery. */
  pay(outTradeNo: string): Delivery
  /** Builds the signed, encrypted notification WeChat Pay would send for a trade (tests replay and tamper with it). */
  paymentNotification(
    trade: SimTrade,
    overrides?: { id?: string; transaction?: Record<string, unknown>; timestamp?: number },
  ): { headers: Record<string, string>; body: string }
  refundNotification(refund: SimRefund, overrides?: { id?: string }): { headers: Record<string, string>; body: string }
  /** Completes a PROCESSING refund now and notifies. */
  completeRefund(outRefundNo: string): void
  plugin: (app: FastifyInstance) => Promise<void>
  close(): void
}

/** The simulator's state in memory, shared by its parts. */
export interface SimContext {
  options: WechatPaySimulatorOptions
  trades: Map<string, SimTrade>
  byPrepay: Map<string, SimTrade>
  byCode: Map<string, SimTrade>
  refunds: Map<string, SimRefund>
  /** Merchant request nonces seen (replay protection), with when. */
  seenNonces: Map<string, number>
  /** Refunds waiting to complete. */
  timers: Set<NodeJS.Timeout>
  requests: WechatPaySimulator['requests']
  faults: SimFaults
  notifier: Notifier
  /** The platform certificate signing now, and every one listed by GET /v3/certificates. */
  platform: { current: SimPlatform; listed: SimPlatform[] }
  /** Bill files waiting to be downloaded, by token. */
  bills: Map<string, { file: Buffer; expires: number }>
}

/** `n` random decimal digits (transaction and refund ids). */
export function digits(n: number) {
  let s = ''
  for (let i = 0; i < n; i++) s += crypto.randomInt(0, 10)
  return s
}

/** A 12-character nonce for AES-256-GCM resources. */
export function aesNonce() {
  return crypto.randomBytes(9).toString('base64url').slice(0, 12)
}

/** A trade not paid by its time_expire is closed, as WeChat Pay does. */
export function expireIfDue(ctx: SimContext, t: SimTrade) {
  if (t.state === 'NOTPAY' && t.timeExpire.getTime() <= ctx.options.now().getTime()) t.state = 'CLOSED'
}
