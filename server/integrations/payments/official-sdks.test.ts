import crypto from 'node:crypto'
import { AlipaySdk } from 'alipay-sdk'
import Fastify, { type FastifyInstance } from 'fastify'
import WxPay from 'wechatpay-node-v3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { beijingDate } from '#shared/time.ts'
import { alipayBillDetail, parseAlipayTradeBill } from './alipay-bill.ts'
import { startPaymentSimulators } from './simulators.ts'
import { TestAlipay as A, TestWechatPay as W } from './test-keys/test-keys.ts'
import { parseWechatTradeBill } from './wechatpay-bill.ts'
import { verifyPaySign } from './wechatpay-crypto.ts'
import { createWechatPaySimulator, type WechatPaySimulator } from './wechatpay-simulator.ts'

/**
 * The simulators driven by the providers' SDKs, so that they stay faithful: what the SDKs send, the simulators
 * take; what the simulators answer and notify, the SDKs verify.
 *
 * - Alipay: Ant Group's own `alipay-sdk` (v4), over HTTP to the simulated gateway on a port.
 * - WeChat Pay: `wechatpay-node-v3`, a community SDK (WeChat Pay publishes official SDKs for Java, Go and PHP, none
 *   for Node). Its addresses are fixed to https://api.mch.weixin.qq.com, so its own extension point for the HTTP
 *   client (`createHttp`) carries its requests, byte for byte, to the simulator mounted at the root of a Fastify
 *   instance; the signing, the bodies, the JSAPI paySign and the verification are the SDK's. It knows platform
 *   certificates only (not the newer WeChat Pay public key), so the simulator signs with its platform certificate.
 */

const day = 86_400_000
const yesterday = () => beijingDate(new Date(Date.now() - day))
const notified: { headers: Record<string, string>; body: string }[] = []

/** Where the simulators deliver notifications: recorded here and accepted as the merchant would accept them. */
const notifyFetch: typeof globalThis.fetch = async (input, init) => {
  const body = typeof init?.body === 'string' ? init.body : ''
  notified.push({ headers: Object.fromEntries(new Headers(init?.headers).entries()), body })
  const url = String(input instanceof Request ? input.url : input)
  return url.includes('alipay') ? new Response('success') : new Response(null, { status: 204 })
}

describe('Alipay gateway simulator, driven by alipay-sdk', () => {
  let sims: Awaited<ReturnType<typeof startPaymentSimulators>>
  let sdk: AlipaySdk
  const tz = process.env.TZ

  beforeAll(async () => {
    // alipay-sdk writes `timestamp` in the process's local time, and Alipay reads it as Beijing time: a server
    // using the SDK must run with TZ=Asia/Shanghai (our own adapter writes Beijing time explicitly).
    process.env.TZ = 'Asia/Shanghai'
    sims = await startPaymentSimulators({ now: () => new Date(), fetch: notifyFetch, retryDelaysMs: [] })
    sdk = new AlipaySdk({
      appId: A.appId,
      privateKey: A.appPrivateKey.trim(),
      alipayPublicKey: A.gatewayPublicKey.trim(),
      gateway: sims.alipayGateway,
      keyType: 'PKCS8',
    })
  })

  afterAll(async () => {
    process.env.TZ = tz
    await sims.close()
  })

  const orderNo = `ZX${Date.now()}`

  it('opens the cashier for pageExec (GET link and POST form) and pays; the SDK verifies the notification', async () => {
    const bizContent = {
      outTradeNo: orderNo,
      totalAmount: '0.01',
      subject: 'SDK 测试课程',
      productCode: 'QUICK_WAP_WAY',
    }
    const link = sdk.pageExec('alipay.trade.wap.pay', 'GET', {
      bizContent,
      returnUrl: 'https://zixue.test/payRedirect',
      notifyUrl: 'https://zixue.test/api/pay/notify/alipay',
    })
    const page = await (await fetch(link)).text()
    expect(page).toContain('确认支付')
    expect(page).toContain('0.01')

    // The POST form: common parameters in the action's query string, the rest as form fields.
    const form = sdk.pageExec('alipay.trade.wap.pay', 'POST', { bizContent, notifyUrl: 'https://zixue.test/n' })
    const action = /action="([^"]+)"/.exec(form)![1]!.replaceAll('&amp;', '&')
    const fields = new URLSearchParams()
    for (const m of form.matchAll(/name="([^"]+)" value="([^"]*)"/g)) fields.set(m[1]!, m[2]!.replaceAll('&quot;', '"'))
    expect(new URL(action).searchParams.get('sign')).toBeTruthy()
    expect(fields.get('biz_content')).toContain(orderNo)
    const posted = await fetch(action, { method: 'POST', body: fields })
    expect(await posted.text()).toContain('确认支付')

    const before = notified.length
    sims.alipay.pay(orderNo)
    await sims.alipay.notifier.idle()
    const n = notified[before]!
    const params = Object.fromEntries(new URLSearchParams(n.body))
    expect(params).toMatchObject({ out_trade_no: orderNo, trade_status: 'TRADE_SUCCESS', total_amount: '0.01' })
    expect(sdk.checkNotifySign(params)).toBe(true)
    expect(sdk.checkNotifySignV2(params)).toBe(true)
    expect(sdk.checkNotifySign({ ...params, total_amount: '100.00' })).toBe(false)
  })

  it('answers exec calls (common parameters in the URL, biz_content in the body) with answers the SDK verifies', async () => {
    const query = await sdk.exec('alipay.trade.query', { bizContent: { outTradeNo: orderNo } }, { validateSign: true })
    expect(query).toMatchObject({
      code: '10000',
      outTradeNo: orderNo,
      tradeStatus: 'TRADE_SUCCESS',
      totalAmount: '0.01',
    })

    const refund = { outTradeNo: orderNo, refundAmount: '0.01', outRequestNo: `RF${orderNo}` }
    const first = await sdk.exec('alipay.trade.refund', { bizContent: refund }, { validateSign: true })
    expect(first).toMatchObject({ code: '10000', fundChange: 'Y', refundFee: '0.01' })
    const again = await sdk.exec('alipay.trade.refund', { bizContent: refund }, { validateSign: true })
    expect(again).toMatchObject({ code: '10000', fundChange: 'N' })
    const asked = await sdk.exec(
      'alipay.trade.fastpay.refund.query',
      { bizContent: { outTradeNo: orderNo, outRequestNo: `RF${orderNo}` } },
      { validateSign: true },
    )
    expect(asked).toMatchObject({ code: '10000', refundStatus: 'REFUND_SUCCESS', refundAmount: '0.01' })
    expect(sims.alipay.trades.get(orderNo)!.refunded).toBe(1)

    // Business failures are signed too: the SDK verifies them.
    const missing = await sdk.exec(
      'alipay.trade.close',
      { bizContent: { outTradeNo: 'ZX_NOT_THERE' } },
      { validateSign: true },
    )
    expect(missing).toMatchObject({ code: '40004', subCode: 'ACQ.TRADE_NOT_EXIST' })
  })

  it('refuses a request signed with another key, and a method it does not know', async () => {
    const stranger = new AlipaySdk({
      appId: A.appId,
      privateKey: crypto
        .generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString()
        .trim(),
      alipayPublicKey: A.gatewayPublicKey.trim(),
      gateway: sims.alipayGateway,
      keyType: 'PKCS8',
    })
    const refused = await stranger.exec('alipay.trade.query', { bizContent: { outTradeNo: orderNo } })
    expect(refused).toMatchObject({ code: '40002', subCode: 'isv.invalid-signature' })
    // alipay-sdk cannot verify an error_response (it looks for the method's own key), so this one is read unverified.
    const unknown = await sdk.exec('alipay.trade.no_such_method', { bizContent: {} })
    expect(unknown).toMatchObject({ code: '40002', subCode: 'isv.invalid-method' })
  })

  it('gives the address of a day’s trade bill, a GBK CSV in a ZIP', async () => {
    const trade = sims.alipay.trades.get(orderNo)!
    // The payment and its refund, as if made yesterday.
    trade.gmtPayment = new Date(Date.now() - day)
    trade.refunds.get(`RF${orderNo}`)!.at = new Date(Date.now() - day)
    const bill = await sdk.exec(
      'alipay.data.dataservice.bill.downloadurl.query',
      { bizContent: { billType: 'trade', billDate: yesterday() } },
      { validateSign: true },
    )
    expect(bill.code).toBe('10000')
    const zip = Buffer.from(await (await fetch(bill.billDownloadUrl as string)).arrayBuffer())
    const parsed = parseAlipayTradeBill(yesterday(), alipayBillDetail(zip))
    expect(parsed.payments).toEqual([
      { orderNo, transactionId: trade.tradeNo, amountFen: 1, at: expect.any(Date) as Date },
    ])
    expect(parsed.refunds).toEqual([
      { orderNo, refundNo: `RF${orderNo}`, amountFen: 1, succeeded: true, at: expect.any(Date) as Date },
    ])
    const today = await sdk.exec(
      'alipay.data.dataservice.bill.downloadurl.query',
      { bizContent: { billType: 'trade', billDate: beijingDate(new Date()) } },
      { validateSign: true },
    )
    expect(today).toMatchObject({ code: '40004', subCode: 'isp.bill_not_exist' })
  })
})

interface SdkAnswer {
  status: number
  data: unknown
  headers: Record<string, string>
  text: string
}

describe('WeChat Pay simulator, driven by wechatpay-node-v3', () => {
  const API = 'https://api.mch.weixin.qq.com'
  let app: FastifyInstance
  let sim: WechatPaySimulator
  let pay: WxPay
  let last: SdkAnswer

  /** The SDK's HTTP client replaced (its `createHttp`): the same requests, answered by the simulator in process. */
  async function exchange(method: 'GET' | 'POST', url: string, headers: Record<string, string>, body?: unknown) {
    const res = await app.inject({
      method,
      url: url.replace(API, ''),
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      payload: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = res.body
    let data: unknown = text
    if (String(res.headers['content-type']).startsWith('application/json')) data = JSON.parse(text) as unknown
    last = {
      status: res.statusCode,
      data,
      headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
      text,
    }
    return last
  }

  /** The SDK's own verification of an answer or notification (fetching the platform certificates it lacks). */
  const sdkVerifies = (a: { headers: Record<string, string>; text: string }) =>
    pay.verifySign({
      timestamp: a.headers['wechatpay-timestamp']!,
      nonce: a.headers['wechatpay-nonce']!,
      serial: a.headers['wechatpay-serial']!,
      signature: a.headers['wechatpay-signature']!,
      body: a.text,
    })

  beforeAll(async () => {
    sim = createWechatPaySimulator({
      mchid: W.mchid,
      merchantSerial: W.merchantSerial,
      merchantPublicKey: W.merchantPublicKey,
      apiV3Key: W.apiV3Key,
      signWith: 'certificate',
      platform: { serial: W.platformSerial, privateKey: W.platformPrivateKey, certificate: W.platformCertificate },
      publicKey: { id: W.publicKeyId, privateKey: W.publicKeyPrivate },
      publicBase: () => API,
      now: () => new Date(),
      fetch: notifyFetch,
      retryDelaysMs: [],
    })
    app = Fastify({ logger: false })
    await app.register(sim.plugin)
    pay = new WxPay({
      appid: 'wx_sdk_test',
      mchid: W.mchid,
      publicKey: Buffer.from(W.merchantCertificate),
      privateKey: Buffer.from(W.merchantPrivateKey),
      key: W.apiV3Key,
    })
    pay.createHttp({
      get: (url: string, headers: Record<string, string>) => exchange('GET', url, headers),
      post: (url: string, params: Record<string, unknown>, headers: Record<string, string>) =>
        exchange('POST', url, headers, params),
      upload: () => Promise.reject(new Error('not used')),
    })
  })

  afterAll(async () => {
    await app.close()
  })

  const base = (no: string, total: number) => ({
    description: 'SDK 测试课程',
    out_trade_no: no,
    notify_url: 'https://zixue.test/api/pay/notify/wechat',
    amount: { total },
  })

  it('takes JSAPI, H5 and Native prepay requests; the SDK verifies every answer', async () => {
    const jsapi = await pay.transactions_jsapi({ ...base('ZXSDKJSAPI0001', 990), payer: { openid: 'o_sdk_openid' } })
    expect(jsapi.status).toBe(200)
    expect(await sdkVerifies(last)).toBe(true)
    // The SDK signs the JSAPI parameters itself; the simulator's bridge checks them as WeChat's client does.
    const params = jsapi.data as {
      appId: string
      timeStamp: string
      nonceStr: string
      package: string
      paySign: string
    }
    expect(params.package).toBe(`prepay_id=${sim.trades.get('ZXSDKJSAPI0001')!.prepayId}`)
    expect(verifyPaySign(params, W.merchantPublicKey)).toBe(true)

    const h5 = await pay.transactions_h5({
      ...base('ZXSDKH5000001', 1990),
      scene_info: { payer_client_ip: '203.0.113.7', h5_info: { type: 'Wap', app_name: '自学' } },
    })
    expect(h5).toMatchObject({ status: 200, data: { h5_url: expect.stringContaining('/checkmweb?') as string } })
    expect(await sdkVerifies(last)).toBe(true)

    const native = await pay.transactions_native(base('ZXSDKNATIVE001', 2990))
    expect(native).toMatchObject({ status: 200, data: { code_url: expect.stringContaining('/scan?pr=') as string } })
    expect(await sdkVerifies(last)).toBe(true)
    expect(sim.trades.get('ZXSDKNATIVE001')).toMatchObject({ tradeType: 'NATIVE', total: 2990, appid: 'wx_sdk_test' })
  })

  it('answers queries (found or not) and closes, signed; the SDK verifies error answers too', async () => {
    const found = await pay.query({ out_trade_no: 'ZXSDKH5000001' })
    expect(found).toMatchObject({ status: 200, data: { trade_state: 'NOTPAY', amount: { total: 1990 } } })
    expect(await sdkVerifies(last)).toBe(true)
    const missing = await pay.query({ out_trade_no: 'ZXSDKMISSING01' })
    expect(missing.status).toBe(404)
    expect(JSON.parse(last.text)).toMatchObject({ code: 'ORDER_NOT_EXIST' })
    expect(await sdkVerifies(last)).toBe(true)
    expect((await pay.close('ZXSDKNATIVE001')).status).toBe(204)
    expect(await sdkVerifies(last)).toBe(true)
    expect(sim.trades.get('ZXSDKNATIVE001')!.state).toBe('CLOSED')
  })

  it('notifies a payment the SDK verifies and decrypts; refunds and answers refund queries', async () => {
    const before = notified.length
    sim.pay('ZXSDKH5000001')
    await sim.notifier.idle()
    const n = notified[before]!
    expect(await sdkVerifies({ headers: n.headers, text: n.body })).toBe(true)
    expect(await sdkVerifies({ headers: n.headers, text: n.body.replace('TRANSACTION', 'TRANSACTIOn') })).toBe(false)
    const { resource } = JSON.parse(n.body) as {
      resource: { ciphertext: string; associated_data: string; nonce: string }
    }
    const transaction = pay.decipher_gcm<{ out_trade_no: string; trade_state: string; amount: { total: number } }>(
      resource.ciphertext,
      resource.associated_data,
      resource.nonce,
    )
    expect(transaction).toMatchObject({
      out_trade_no: 'ZXSDKH5000001',
      trade_state: 'SUCCESS',
      amount: { total: 1990 },
    })

    const refund = await pay.refunds({
      out_trade_no: 'ZXSDKH5000001',
      out_refund_no: 'RFSDKH5000001',
      amount: { refund: 990, total: 1990, currency: 'CNY' },
    })
    expect(refund).toMatchObject({ status: 200, data: { status: 'PROCESSING', amount: { refund: 990 } } })
    expect(await sdkVerifies(last)).toBe(true)
    sim.completeRefund('RFSDKH5000001')
    const asked = await pay.find_refunds('RFSDKH5000001')
    expect(asked).toMatchObject({ status: 200, data: { status: 'SUCCESS' } })
    expect(await sdkVerifies(last)).toBe(true)
  })

  it('gives a day’s trade bill: a signed answer with the file’s SHA1, the file by a signed download', async () => {
    const trade = sim.trades.get('ZXSDKH5000001')!
    trade.successTime = new Date(Date.now() - day)
    sim.refunds.get('RFSDKH5000001')!.successTime = new Date(Date.now() - day)
    const bill = await pay.tradebill({ bill_date: yesterday(), bill_type: 'ALL' })
    expect(bill.status).toBe(200)
    expect(await sdkVerifies(last)).toBe(true)
    const { hash_value, download_url } = bill.data as { hash_value: string; download_url: string }
    const file = await pay.downloadBill(download_url)
    expect(file.status).toBe(200)
    expect(crypto.createHash('sha1').update(last.text).digest('hex')).toBe(hash_value)
    expect(last.headers['wechatpay-signature']).toBeUndefined()
    const parsed = parseWechatTradeBill(yesterday(), last.text)
    expect(parsed.payments).toEqual([
      { orderNo: 'ZXSDKH5000001', transactionId: trade.transactionId, amountFen: 1990, at: expect.any(Date) as Date },
    ])
    expect(parsed.refunds).toEqual([
      {
        orderNo: 'ZXSDKH5000001',
        refundNo: 'RFSDKH5000001',
        amountFen: 990,
        succeeded: true,
        at: expect.any(Date) as Date,
      },
    ])
  })
})
