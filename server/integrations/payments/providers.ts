import { createAlipay } from './alipay.ts'
import type { PaymentsConfig } from './payments-config.ts'
import type { PaymentProviders } from './payments.ts'
import { createWechatPay } from './wechatpay.ts'

/** The real adapters for the configured merchants (or for the simulators, with the test keys). */
export function createPaymentProviders(
  config: PaymentsConfig,
  deps: { fetch?: typeof globalThis.fetch; now: () => Date },
): PaymentProviders {
  const transport = { fetch: deps.fetch, now: deps.now }
  return {
    wechat: createWechatPay({ ...config.wechat, ...transport }),
    alipay: createAlipay({ ...config.alipay, ...transport }),
  }
}
