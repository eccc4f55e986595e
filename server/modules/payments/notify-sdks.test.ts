import { AlipaySdk } from 'alipay-sdk'
import Fastify from 'fastify'
import WxPay from 'wechatpay-node-v3'
import { afterAll, describe, expect, it } from 'vitest'
import { TestAlipay as A, TestWechatPay as W } from '#server/integrations/payments/test-keys/test-keys.ts'
import { createWechatPaySimulator } from '#server/integrations/payments/wechatpay-simulator.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'
import { headersOf, useCommerceApp, type ApiBody } from './testing.ts'

/**
 * The notify endpoints take exactly what the providers' SDKs verify: a genuine notification from the simulator is
 * verified by the SDK and applied by the endpoint; a changed one is refused by both.
 */
describe('POST /api/pay/notify/* against the providers’ SDKs', () => {
  // The simulator signs WeChat Pay notifications with its platform certificate (wechatpay-node-v3 knows no other).
  const { t, clock } = useCommerceApp({ WECHATPAY_PLATFORM_CERT_DOWNLOAD: 'true' })
  const sims = () => t().app.paymentSimulators!
  const certificates = Fastify({ logger: false })

  afterAll(async () => {
    await certificates.close()
  })

  async function buy(payMethod: string) {
    const db = t().database.db
    const m = await makeMember(db)
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/pay/course',
      headers: headersOf(m.token),
      payload: { course_id: await makeCourse(db, { priceFen: 4900 }), pay_method: payMethod },
    })
    const d = res.json<ApiBody<{ order_no: string; redirect_url: string | null }>>().data
    return { m, orderNo: d.order_no, redirectUrl: d.redirect_url }
  }

  const state = async (token: string, orderNo: string) =>
    (await t().app.inject({ method: 'GET', url: `/api/orders/${orderNo}`, headers: headersOf(token) })).json<
      ApiBody<{ state: string }>
    >().data.state

  it('Alipay: alipay-sdk checkNotifySign and the endpoint agree', async () => {
    const sdk = new AlipaySdk({
      appId: A.appId,
      privateKey: A.appPrivateKey.trim(),
      alipayPublicKey: A.gatewayPublicKey.trim(),
    })
    const { m, orderNo, redirectUrl } = await buy('alipay_wap')
    const gateway = new URL(redirectUrl!)
    await t().app.inject({ method: 'GET', url: `${gateway.pathname}${gateway.search}` })
    const trade = sims().alipay.trades.get(orderNo)!
    trade.status = 'TRADE_SUCCESS'
    trade.gmtPayment = clock.now()
    const post = (body: string) =>
      t().app.inject({
        method: 'POST',
        url: '/api/pay/notify/alipay',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        payload: body,
      })
    const genuine = sims().alipay.paymentNotification(trade)
    const changed = genuine.replace('total_amount=49.00', 'total_amount=0.49')
    expect(sdk.checkNotifySign(Object.fromEntries(new URLSearchParams(changed)))).toBe(false)
    expect((await post(changed)).body).toBe('failure')
    expect(sdk.checkNotifySign(Object.fromEntries(new URLSearchParams(genuine)))).toBe(true)
    expect((await post(genuine)).body).toBe('success')
    expect(await state(m.token, orderNo)).toBe('paid')
  })

  it('WeChat Pay: wechatpay-node-v3 verifySign and the endpoint agree', async () => {
    // The SDK fetches the platform certificates itself (its fixed address, carried to a simulator with the same
    // keys at the root, where the path it signs is the path served).
    await certificates.register(
      createWechatPaySimulator({
        mchid: W.mchid,
        merchantSerial: W.merchantSerial,
        merchantPublicKey: W.merchantPublicKey,
        apiV3Key: W.apiV3Key,
        signWith: 'certificate',
        platform: { serial: W.platformSerial, privateKey: W.platformPrivateKey, certificate: W.platformCertificate },
        publicKey: { id: W.publicKeyId, privateKey: W.publicKeyPrivate },
        publicBase: () => 'https://api.mch.weixin.qq.com',
        now: clock.now,
      }).plugin,
    )
    const pay = new WxPay({
      appid: 'wx_sdk_test',
      mchid: W.mchid,
      publicKey: Buffer.from(W.merchantCertificate),
      privateKey: Buffer.from(W.merchantPrivateKey),
      key: W.apiV3Key,
    })
    pay.createHttp({
      get: async (url: string, headers: Record<string, string>) => {
        const res = await certificates.inject({
          method: 'GET',
          url: url.replace('https://api.mch.weixin.qq.com', ''),
          headers,
        })
        return { status: res.statusCode, data: res.json<unknown>() }
      },
      post: () => Promise.reject(new Error('not used')),
      upload: () => Promise.reject(new Error('not used')),
    })
    const { m, orderNo } = await buy('wechat_h5')
    const trade = sims().wechat.trades.get(orderNo)!
    trade.state = 'SUCCESS'
    trade.transactionId = `4200${Date.now()}`
    trade.successTime = clock.now()
    const verify = (n: { headers: Record<string, string>; body: string }) =>
      pay.verifySign({
        timestamp: n.headers['Wechatpay-Timestamp']!,
        nonce: n.headers['Wechatpay-Nonce']!,
        serial: n.headers['Wechatpay-Serial']!,
        signature: n.headers['Wechatpay-Signature']!,
        body: n.body,
      })
    const post = (n: { headers: Record<string, string>; body: string }) =>
      t().app.inject({ method: 'POST', url: '/api/pay/notify/wechat', headers: n.headers, payload: n.body })
    const genuine = sims().wechat.paymentNotification(trade)
    const changed = {
      headers: genuine.headers,
      body: genuine.body.replace('"summary":"支付成功"', '"summary":"支付成功!"'),
    }
    expect(await verify(changed)).toBe(false)
    expect((await post(changed)).statusCode).toBe(401)
    expect(await verify(genuine)).toBe(true)
    expect((await post(genuine)).statusCode).toBe(204)
    expect(await state(m.token, orderNo)).toBe('paid')
  })
})
