import Fastify from 'fastify'
import { createAlipaySimulator, type AlipaySimulator } from './alipay-simulator.ts'
import { TestAlipay, TestWechatPay } from './test-keys/test-keys.ts'
import { createWechatPaySimulator, type WechatPaySimulator } from './wechatpay-simulator.ts'

export interface PaymentSimulators {
  wechat: WechatPaySimulator
  alipay: AlipaySimulator
}

export interface SimulatorOptions {
  /** Where browsers reach the simulators: `${base}/__sim/wechatpay` and `${base}/__sim/alipay`. */
  publicBase: () => string
  now: () => Date
  /** How notifications are sent (tests route them into the app in process). */
  fetch?: typeof globalThis.fetch
  retryDelaysMs?: readonly number[]
  refundDelayMs?: number
  wechatSignWith?: 'public_key' | 'certificate'
}

/**
 * How long the demo's simulated WeChat Pay takes to complete a refund: a real refund takes a while, and in the
 * meantime the member sees "退款处理中" (the simulator's /refunds page completes one at once). Tests keep 50 ms.
 */
export const DEMO_REFUND_DELAY_MS = 20_000

export const WECHATPAY_SIM_PREFIX = '/__sim/wechatpay'
export const ALIPAY_SIM_PREFIX = '/__sim/alipay'

/** Both simulators with the committed TEST keys (server/integrations/payments/test-keys/). */
export function createPaymentSimulators(options: SimulatorOptions): PaymentSimulators {
  return {
    wechat: createWechatPaySimulator({
      mchid: TestWechatPay.mchid,
      merchantSerial: TestWechatPay.merchantSerial,
      merchantPublicKey: TestWechatPay.merchantPublicKey,
      apiV3Key: TestWechatPay.apiV3Key,
      signWith: options.wechatSignWith ?? 'public_key',
      platform: {
        serial: TestWechatPay.platformSerial,
        privateKey: TestWechatPay.platformPrivateKey,
        certificate: TestWechatPay.platformCertificate,
      },
      nextPlatform: {
        serial: TestWechatPay.platform2Serial,
        privateKey: TestWechatPay.platform2PrivateKey,
        certificate: TestWechatPay.platform2Certificate,
      },
      publicKey: { id: TestWechatPay.publicKeyId, privateKey: TestWechatPay.publicKeyPrivate },
      publicBase: () => `${options.publicBase()}${WECHATPAY_SIM_PREFIX}`,
      now: options.now,
      fetch: options.fetch,
      retryDelaysMs: options.retryDelaysMs,
      refundDelayMs: options.refundDelayMs,
    }),
    alipay: createAlipaySimulator({
      appId: TestAlipay.appId,
      sellerId: TestAlipay.sellerId,
      appPublicKey: TestAlipay.appPublicKey,
      alipayPrivateKey: TestAlipay.gatewayPrivateKey,
      publicBase: () => `${options.publicBase()}${ALIPAY_SIM_PREFIX}`,
      now: options.now,
      fetch: options.fetch,
      retryDelaysMs: options.retryDelaysMs,
    }),
  }
}

/**
 * Both simulators in a server of their own on a free port (tests that run the app as a child process point
 * WECHATPAY_API_BASE and ALIPAY_GATEWAY at it).
 */
export async function startPaymentSimulators(options: Omit<SimulatorOptions, 'publicBase'> & { host?: string }) {
  let base = ''
  const sims = createPaymentSimulators({ ...options, publicBase: () => base })
  const app = Fastify({ logger: false })
  await app.register(sims.wechat.plugin, { prefix: WECHATPAY_SIM_PREFIX })
  await app.register(sims.alipay.plugin, { prefix: ALIPAY_SIM_PREFIX })
  await app.listen({ host: options.host ?? '127.0.0.1', port: 0 })
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('simulator server has no port')
  base = `http://${options.host ?? '127.0.0.1'}:${address.port}`
  return {
    ...sims,
    url: base,
    wechatBase: `${base}${WECHATPAY_SIM_PREFIX}`,
    alipayGateway: `${base}${ALIPAY_SIM_PREFIX}/gateway.do`,
    close: () => app.close(),
  }
}
