import { createAlipay } from './alipay.ts'
import type { PaymentsConfig } from './payments-config.ts'
import type { PaymentProviders } from './payments.ts'
import { createWechatPay } from './wechatpay.ts'

/** The real adapters for the configured merchants (or for the simulators, with the test keys). */
export function createPaymentProviders(
  config: PaymentsConfig,
  deps: { fetch?: typeof globalThis.fetch; now: () => Date },
): PaymentProviders {
  const { wechat, alipay } = config
  return {
    wechat: createWechatPay({
      mchid: wechat.mchid,
      appId: wechat.appId,
      apiBase: wechat.apiBase,
      privateKey: wechat.privateKey,
      serialNo: wechat.serialNo,
      apiV3Key: wechat.apiV3Key,
      verifier: wechat.verifier,
      downloadCertificates: wechat.downloadCertificates,
      fetch: deps.fetch,
      now: deps.now,
    }),
    alipay: createAlipay({
      appId: alipay.appId,
      gateway: alipay.gateway,
      privateKey: alipay.privateKey,
      alipayPublicKey: alipay.alipayPublicKey,
      fetch: deps.fetch,
      now: deps.now,
    }),
  }
}
