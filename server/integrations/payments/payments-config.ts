import { z } from 'zod'
import type { AlipayMerchant } from './alipay.ts'
import { loadCertificate, loadPrivateKey, loadPublicKey } from './keys.ts'
import { TestAlipay, TestWechatPay } from './test-keys/test-keys.ts'
import type { WechatPayMerchant } from './wechatpay.ts'

/** The payment variables of the environment (server/config.ts spreads them into its schema). */
export const paymentEnv = {
  WECHATPAY_MCHID: z
    .string()
    .regex(/^\d{8,12}$/, 'must be the 8–12 digit merchant id')
    .or(z.literal(''))
    .default(''),
  WECHATPAY_APPID: z.string().default(''),
  WECHATPAY_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  WECHATPAY_PRIVATE_KEY: z.string().default(''),
  WECHATPAY_CERT_SERIAL: z
    .string()
    .regex(/^[0-9A-Fa-f]{8,64}$/, 'must be the hex serial of the merchant API certificate')
    .or(z.literal(''))
    .default(''),
  WECHATPAY_APIV3_KEY: z
    .string()
    .refine((v) => v === '' || Buffer.byteLength(v) === 32, 'must be exactly 32 bytes')
    .default(''),
  WECHATPAY_PLATFORM_CERT: z.string().default(''),
  WECHATPAY_PUBLIC_KEY: z.string().default(''),
  WECHATPAY_PUBLIC_KEY_ID: z
    .string()
    .regex(/^PUB_KEY_ID_\w+$/, 'must look like PUB_KEY_ID_…')
    .or(z.literal(''))
    .default(''),
  WECHATPAY_PLATFORM_CERT_DOWNLOAD: z.enum(['auto', 'true', 'false', '1', '0']).default('auto'),
  ALIPAY_APP_ID: z.string().default(''),
  ALIPAY_GATEWAY: z.url({ protocol: /^https?$/ }).optional(),
  ALIPAY_PRIVATE_KEY: z.string().default(''),
  ALIPAY_PUBLIC_KEY: z.string().default(''),
  ORDER_EXPIRE_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(24 * 60)
    .default(30),
  REFUND_WINDOW_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  REFUND_MAX_WATCHED_PERCENT: z.coerce.number().int().min(0).max(100).default(20),
  POINTS_FEN_PER_POINT: z.coerce.number().int().min(1).max(10_000).default(1),
  POINTS_MAX_PERCENT: z.coerce.number().int().min(0).max(100).default(50),
  POINTS_EARN_PER_YUAN: z.coerce.number().int().min(0).max(100).default(1),
  PAYMENT_SWEEPS: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .default(true),
  PAYMENT_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
}

export const paymentEnvSchema = z.object(paymentEnv)
type PaymentEnv = z.output<typeof paymentEnvSchema>

/** Whether a provider is on, and whether it is the local simulator. */
interface ProviderSwitch {
  /** False: the provider's methods are refused (production without a merchant). */
  enabled: boolean
  /** The local simulator with the committed test keys (no merchant configured, outside production). */
  simulated: boolean
}

export interface WechatPayConfig extends WechatPayMerchant, ProviderSwitch {
  /** Download the platform certificates (GET /v3/certificates) and keep them fresh: platform-certificate mode. */
  downloadCertificates: boolean
  /** What the simulator signs with (the simulated merchant's verification mode). */
  simulatorSignWith: 'public_key' | 'certificate'
}

export interface AlipayConfig extends AlipayMerchant, ProviderSwitch {}

export interface PointRules {
  /** What one point is worth at checkout, in fen. */
  fenPerPoint: number
  /** At most this share of an order (after its coupon) may be paid with points, in percent. */
  maxPercent: number
  /** Points earned per yuan paid (rounded down). */
  earnPerYuan: number
}

export interface PaymentsConfig {
  orderExpireMinutes: number
  /** A member may ask for a refund this many days after paying… */
  refundWindowDays: number
  /** …of a course they watched less than this share of (percent). */
  refundMaxWatchedPercent: number
  points: PointRules
  /** Close expired orders, reconcile unanswered ones and send refunds, in this process. */
  sweeps: boolean
  sweepIntervalMs: number
  wechat: WechatPayConfig
  alipay: AlipayConfig
}

/**
 * The simulated merchant verifies with the WeChat Pay public key, or, with WECHATPAY_PLATFORM_CERT_DOWNLOAD=true,
 * with platform certificates it downloads from the simulator (which then signs with its platform certificate).
 */
const simulatedWechat = (
  publicUrl: string,
  appId: string,
  apiBase: string | undefined,
  download: boolean,
): WechatPayConfig => ({
  enabled: true,
  simulated: true,
  mchid: TestWechatPay.mchid,
  appId,
  apiBase: (apiBase ?? `${publicUrl}/__sim/wechatpay`).replace(/\/$/, ''),
  privateKey: loadPrivateKey(TestWechatPay.merchantPrivateKey),
  serialNo: TestWechatPay.merchantSerial,
  apiV3Key: TestWechatPay.apiV3Key,
  verifier: download
    ? { certificates: [], publicKey: null }
    : {
        certificates: [loadCertificate(TestWechatPay.platformCertificate)],
        publicKey: { id: TestWechatPay.publicKeyId, key: loadPublicKey(TestWechatPay.publicKey) },
      },
  downloadCertificates: download,
  simulatorSignWith: download ? 'certificate' : 'public_key',
})

const simulatedAlipay = (publicUrl: string, gateway?: string): AlipayConfig => ({
  enabled: true,
  simulated: true,
  appId: TestAlipay.appId,
  gateway: gateway ?? `${publicUrl}/__sim/alipay/gateway.do`,
  privateKey: loadPrivateKey(TestAlipay.appPrivateKey),
  alipayPublicKey: loadPublicKey(TestAlipay.gatewayPublicKey),
})

/**
 * Payment settings from the environment. A provider with no merchant configured runs against its local
 * simulator with the committed TEST keys, except in production, where it is switched off (a simulator would let
 * anyone "pay"). Returns the problems, each naming its variable, instead of throwing.
 */
export function paymentConfig(e: PaymentEnv, ctx: { production: boolean; publicUrl: string; wechatAppId: string }) {
  const problems: string[] = []
  const key = <T>(name: string, value: string, load: (v: string) => T): T | null => {
    try {
      return load(value)
    } catch (err) {
      problems.push(`  ${name}: ${err instanceof Error ? err.message : 'cannot be read'}`)
      return null
    }
  }

  let wechat: WechatPayConfig
  const wechatAppId = e.WECHATPAY_APPID || ctx.wechatAppId
  const download = e.WECHATPAY_PLATFORM_CERT_DOWNLOAD
  if (e.WECHATPAY_MCHID === '') {
    const simulated = simulatedWechat(
      ctx.publicUrl,
      wechatAppId,
      e.WECHATPAY_API_BASE,
      download === 'true' || download === '1',
    )
    wechat = { ...simulated, enabled: !ctx.production, simulated: !ctx.production }
  } else {
    for (const name of ['WECHATPAY_PRIVATE_KEY', 'WECHATPAY_CERT_SERIAL', 'WECHATPAY_APIV3_KEY'] as const) {
      if (e[name] === '') problems.push(`  ${name}: required when WECHATPAY_MCHID is set`)
    }
    // Platform-certificate mode (no public key) downloads the certificates unless told not to.
    const downloads = download === 'auto' ? e.WECHATPAY_PUBLIC_KEY === '' : download === 'true' || download === '1'
    if (e.WECHATPAY_PLATFORM_CERT === '' && e.WECHATPAY_PUBLIC_KEY === '' && !downloads) {
      problems.push(
        '  WECHATPAY_PUBLIC_KEY: set it (with WECHATPAY_PUBLIC_KEY_ID), or WECHATPAY_PLATFORM_CERT, or let the platform certificates download, to verify WeChat Pay',
      )
    }
    if (e.WECHATPAY_PUBLIC_KEY !== '' && e.WECHATPAY_PUBLIC_KEY_ID === '')
      problems.push('  WECHATPAY_PUBLIC_KEY_ID: required with WECHATPAY_PUBLIC_KEY')
    const privateKey = e.WECHATPAY_PRIVATE_KEY
      ? key('WECHATPAY_PRIVATE_KEY', e.WECHATPAY_PRIVATE_KEY, loadPrivateKey)
      : null
    const cert = e.WECHATPAY_PLATFORM_CERT
      ? key('WECHATPAY_PLATFORM_CERT', e.WECHATPAY_PLATFORM_CERT, loadCertificate)
      : null
    const publicKey = e.WECHATPAY_PUBLIC_KEY ? key('WECHATPAY_PUBLIC_KEY', e.WECHATPAY_PUBLIC_KEY, loadPublicKey) : null
    wechat = {
      enabled: true,
      simulated: false,
      mchid: e.WECHATPAY_MCHID,
      appId: wechatAppId,
      apiBase: (e.WECHATPAY_API_BASE ?? 'https://api.mch.weixin.qq.com').replace(/\/$/, ''),
      privateKey: privateKey!,
      serialNo: e.WECHATPAY_CERT_SERIAL.toUpperCase(),
      apiV3Key: e.WECHATPAY_APIV3_KEY,
      verifier: {
        certificates: cert ? [cert] : [],
        publicKey: publicKey ? { id: e.WECHATPAY_PUBLIC_KEY_ID, key: publicKey } : null,
      },
      downloadCertificates: downloads,
      simulatorSignWith: publicKey ? 'public_key' : 'certificate',
    }
  }

  let alipay: AlipayConfig
  if (e.ALIPAY_APP_ID === '') {
    alipay = {
      ...simulatedAlipay(ctx.publicUrl, e.ALIPAY_GATEWAY),
      enabled: !ctx.production,
      simulated: !ctx.production,
    }
  } else {
    for (const name of ['ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY'] as const) {
      if (e[name] === '') problems.push(`  ${name}: required when ALIPAY_APP_ID is set`)
    }
    const privateKey = e.ALIPAY_PRIVATE_KEY ? key('ALIPAY_PRIVATE_KEY', e.ALIPAY_PRIVATE_KEY, loadPrivateKey) : null
    const publicKey = e.ALIPAY_PUBLIC_KEY ? key('ALIPAY_PUBLIC_KEY', e.ALIPAY_PUBLIC_KEY, loadPublicKey) : null
    alipay = {
      enabled: true,
      simulated: false,
      appId: e.ALIPAY_APP_ID,
      gateway: e.ALIPAY_GATEWAY ?? 'https://openapi.alipay.com/gateway.do',
      privateKey: privateKey!,
      alipayPublicKey: publicKey!,
    }
  }

  const config: PaymentsConfig = {
    orderExpireMinutes: e.ORDER_EXPIRE_MINUTES,
    refundWindowDays: e.REFUND_WINDOW_DAYS,
    refundMaxWatchedPercent: e.REFUND_MAX_WATCHED_PERCENT,
    points: {
      fenPerPoint: e.POINTS_FEN_PER_POINT,
      maxPercent: e.POINTS_MAX_PERCENT,
      earnPerYuan: e.POINTS_EARN_PER_YUAN,
    },
    sweeps: e.PAYMENT_SWEEPS,
    sweepIntervalMs: e.PAYMENT_SWEEP_SECONDS * 1000,
    wechat,
    alipay,
  }
  return { config, problems }
}
