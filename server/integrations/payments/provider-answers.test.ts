import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { injectFetch } from '#tests/support/inject-fetch.ts'
import { createAlipay } from './alipay.ts'
import { ProviderError, type PaymentProvider } from './payments.ts'
import { paymentConfig, paymentEnvSchema } from './payments-config.ts'
import {
  ALIPAY_SIM_PREFIX,
  createPaymentSimulators,
  WECHATPAY_SIM_PREFIX,
  type PaymentSimulators,
} from './simulators.ts'
import { createWechatPay } from './wechatpay.ts'

/**
 * Provider answers are believed only once verified, failures included: the adapters against the simulators, with
 * a man in the middle that strips or forges the signature of the answers.
 */

let app: FastifyInstance
let sims: PaymentSimulators
const now = () => new Date()
const { config } = paymentConfig(paymentEnvSchema.parse({}), {
  production: false,
  publicUrl: 'http://sim.test',
  wechatAppId: 'wx_test_app',
})

/** What the man in the middle does to every answer: nothing, or takes off its signature, or puts another on. */
let tamper: 'none' | 'strip' | 'forge' = 'none'

function tampering(inner: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    const res = await inner(input, init)
    if (tamper === 'none') return res
    const headers = new Headers(res.headers)
    let body = await res.text()
    if (res.headers.has('wechatpay-signature')) {
      if (tamper === 'forge') headers.set('wechatpay-signature', Buffer.alloc(256, 7).toString('base64'))
      else for (const h of [...headers.keys()]) if (h.startsWith('wechatpay-')) headers.delete(h)
    } else if (body.includes('"sign"')) {
      body =
        tamper === 'strip'
          ? body.replace(/,"sign":"[^"]*"/, '')
          : body.replace(/"sign":"[^"]*"/, `"sign":"${Buffer.alloc(256, 7).toString('base64')}"`)
    }
    return new Response(body, { status: res.status, headers })
  }
}

let wechat: PaymentProvider
let alipay: PaymentProvider

beforeAll(async () => {
  app = Fastify({ logger: false })
  const fetch = injectFetch(() => app)
  sims = createPaymentSimulators({ publicBase: () => 'http://sim.test', now, fetch })
  await app.register(sims.wechat.plugin, { prefix: WECHATPAY_SIM_PREFIX })
  await app.register(sims.alipay.plugin, { prefix: ALIPAY_SIM_PREFIX })
  wechat = createWechatPay({ ...config.wechat, fetch: tampering(fetch), now })
  alipay = createAlipay({ ...config.alipay, fetch: tampering(fetch), now })
})

afterAll(async () => {
  await app.close()
})

async function providerError(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(ProviderError)
  return err as ProviderError
}

describe('WeChat Pay answers', () => {
  it('believes a signed "ORDER_NOT_EXIST", and not one whose signature is missing or forged', async () => {
    tamper = 'none'
    expect((await wechat.query('ZX2026112500000001')).state).toBe('not_found')
    tamper = 'strip'
    expect((await providerError(wechat.query('ZX2026112500000001'))).code).toBeNull()
    tamper = 'forge'
    const forged = await providerError(wechat.query('ZX2026112500000001'))
    expect(forged.code).toBeNull()
    expect(forged.message).toMatch(/HTTP 404\) failed verification/)
    // Closing an order WeChat says it never saw is fine, but only when WeChat said it.
    await expect(wechat.close('ZX2026112500000001')).rejects.toBeInstanceOf(ProviderError)
    tamper = 'none'
    await expect(wechat.close('ZX2026112500000001')).resolves.toBeUndefined()
  })

  it('does not fail a refund on an unverified refusal: it is an error to retry', async () => {
    tamper = 'none'
    const refund = {
      orderNo: 'ZX2026112500000002',
      refundNo: 'RF2026112500000002',
      amountFen: 100,
      totalFen: 100,
      reason: '测试',
      notifyUrl: 'http://sim.test/api/pay/notify/wechat/refund',
    }
    // A signed RESOURCE_NOT_EXISTS is a refusal…
    expect((await wechat.refund(refund)).state).toBe('failed')
    // …an unsigned one is not believed.
    tamper = 'strip'
    expect((await providerError(wechat.refund(refund))).code).toBeNull()
    tamper = 'none'
  })
})

describe('Alipay answers', () => {
  it('believes a signed ACQ.TRADE_NOT_EXIST, and not one whose sign is missing or forged', async () => {
    tamper = 'none'
    expect((await alipay.query('ZX2026112500000003')).state).toBe('not_found')
    tamper = 'strip'
    expect((await providerError(alipay.query('ZX2026112500000003'))).code).toBe('SIGN_ERROR')
    tamper = 'forge'
    expect((await providerError(alipay.query('ZX2026112500000003'))).code).toBe('SIGN_ERROR')
    await expect(alipay.close('ZX2026112500000003')).rejects.toBeInstanceOf(ProviderError)
    tamper = 'none'
    await expect(alipay.close('ZX2026112500000003')).resolves.toBeUndefined()
  })

  it('does not fail a refund on an unverified refusal', async () => {
    tamper = 'none'
    const refund = {
      orderNo: 'ZX2026112500000004',
      refundNo: 'RF2026112500000004',
      amountFen: 100,
      totalFen: 100,
      reason: '测试',
      notifyUrl: '',
    }
    expect((await alipay.refund(refund)).state).toBe('failed')
    tamper = 'forge'
    expect((await providerError(alipay.refund(refund))).code).toBe('SIGN_ERROR')
    tamper = 'none'
  })
})
