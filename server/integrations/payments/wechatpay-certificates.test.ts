import crypto from 'node:crypto'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { testClock } from '#server/modules/auth/testing.ts'
import { injectFetch } from '#tests/support/inject-fetch.ts'
import { loadCertificate, loadPrivateKey } from './keys.ts'
import { NotificationError } from './payments.ts'
import { paymentConfig, paymentEnvSchema } from './payments-config.ts'
import { WECHATPAY_SIM_PREFIX } from './simulators.ts'
import { TestWechatPay as W } from './test-keys/test-keys.ts'
import { createWechatPay, type WechatPayProvider } from './wechatpay.ts'
import {
  createCertificateStore,
  decryptPlatformCertificates,
  encryptPlatformCertificate,
} from './wechatpay-certificates.ts'
import { nonceStr, signResponse, verifyWechatpaySignature } from './wechatpay-crypto.ts'
import { createWechatPaySimulator, type SimTrade, type WechatPaySimulator } from './wechatpay-simulator.ts'

const platform1 = { serial: W.platformSerial, privateKey: W.platformPrivateKey, certificate: W.platformCertificate }
const platform2 = { serial: W.platform2Serial, privateKey: W.platform2PrivateKey, certificate: W.platform2Certificate }

function listed(pems: string[], key: string = W.apiV3Key) {
  return {
    data: pems.map((pem, i) =>
      encryptPlatformCertificate({
        certificatePem: pem,
        apiV3Key: key,
        nonce: `nonce${i}abcdefg`.slice(0, 12),
        effectiveTime: '2026-11-01T00:00:00+08:00',
        expireTime: '2031-11-01T00:00:00+08:00',
      }),
    ),
  }
}

/** A notification as the server receives it: header names in lower case. */
function received(n: { headers: Record<string, string>; body: string }) {
  return { headers: Object.fromEntries(Object.entries(n.headers).map(([k, v]) => [k.toLowerCase(), v])), body: n.body }
}

function signedBy(p: { serial: string; privateKey: string }, body: string, at: Date, serial = p.serial) {
  const h = signResponse({
    privateKey: p.privateKey,
    serial,
    body,
    timestamp: Math.floor(at.getTime() / 1000),
    nonce: nonceStr(),
  })
  return {
    timestamp: h['Wechatpay-Timestamp'],
    nonce: h['Wechatpay-Nonce'],
    signature: h['Wechatpay-Signature'],
    serial: h['Wechatpay-Serial'],
  }
}

describe('platform certificates of GET /v3/certificates', () => {
  it('encrypts like an independent AES-256-GCM (vector made with Python cryptography) and decrypts back', () => {
    const entry = encryptPlatformCertificate({
      certificatePem: W.platform2Certificate,
      apiV3Key: W.apiV3Key,
      nonce: 'cert2nonce01',
      effectiveTime: 'x',
      expireTime: 'y',
    })
    expect(entry.serial_no).toBe(W.platform2Serial)
    expect(entry.encrypt_certificate).toMatchObject({
      algorithm: 'AEAD_AES_256_GCM',
      nonce: 'cert2nonce01',
      associated_data: 'certificate',
    })
    expect(crypto.createHash('sha256').update(entry.encrypt_certificate.ciphertext).digest('hex')).toBe(
      '39390b9bea97fbe7cd71602dce1f30abe9766be9940428c27d0660b985a294ef',
    )
    const [cert] = decryptPlatformCertificates(
      { data: [{ ...entry, expire_time: '2031-11-01T00:00:00+08:00' }] },
      W.apiV3Key,
    )
    expect(cert!.serial).toBe(W.platform2Serial)
    expect(cert!.expiresAt!.toISOString()).toBe('2031-10-31T16:00:00.000Z')
    // The decrypted certificate's key checks the rotated platform key's signatures.
    const at = new Date()
    const keys = { certificates: [cert!], publicKey: null }
    expect(verifyWechatpaySignature(keys, signedBy(platform2, '{"a":1}', at), '{"a":1}', at)).toEqual({ ok: true })
    expect(
      verifyWechatpaySignature(keys, signedBy(platform1, '{"a":1}', at, W.platform2Serial), '{"a":1}', at),
    ).toMatchObject({ ok: false })
  })

  it("refuses a wrong APIv3 key, a changed ciphertext, a serial that is not the certificate's and a malformed answer", () => {
    expect(() =>
      decryptPlatformCertificates(listed([W.platformCertificate], 'AnotherApiV3Key0123456789abcdefg'), W.apiV3Key),
    ).toThrow(/does not decrypt/)
    const answer = listed([W.platformCertificate])
    const c = Buffer.from(answer.data[0]!.encrypt_certificate.ciphertext, 'base64')
    c[10] = c[10]! ^ 1
    answer.data[0]!.encrypt_certificate.ciphertext = c.toString('base64')
    expect(() => decryptPlatformCertificates(answer, W.apiV3Key)).toThrow(/does not decrypt/)
    const mislabelled = listed([W.platformCertificate])
    mislabelled.data[0]!.serial_no = W.platform2Serial
    expect(() => decryptPlatformCertificates(mislabelled, W.apiV3Key)).toThrow(/has serial/)
    expect(() => decryptPlatformCertificates({ certificates: [] }, W.apiV3Key)).toThrow(
      /not a \/v3\/certificates answer/,
    )
    expect(
      decryptPlatformCertificates(listed([W.platformCertificate, W.platform2Certificate]), W.apiV3Key).map(
        (x) => x.serial,
      ),
    ).toEqual([W.platformSerial, W.platform2Serial])
  })

  it('the store picks the key by serial: downloaded ones first, configured ones as the fallback, expired ones never', async () => {
    const clock = testClock()
    let answer = listed([W.platform2Certificate])
    const store = createCertificateStore({
      apiV3Key: W.apiV3Key,
      configured: { certificates: [loadCertificate(W.platformCertificate)], publicKey: null },
      download: async () => {
        const body = JSON.stringify(answer)
        return { headers: signedBy(platform2, body, clock.now()), body }
      },
      now: clock.now,
    })
    expect(store.knows(W.platformSerial)).toBe(true)
    expect(store.knows(W.platform2Serial)).toBe(false)
    expect(await store.refresh()).toBe(true)
    expect(store.keys().certificates.map((c) => c.serial)).toEqual([W.platform2Serial, W.platformSerial])
    expect(store.knows(W.platform2Serial.toLowerCase())).toBe(true)
    const body = '{"id":"n1"}'
    expect(verifyWechatpaySignature(store.keys(), signedBy(platform1, body, clock.now()), body, clock.now())).toEqual({
      ok: true,
    })
    expect(verifyWechatpaySignature(store.keys(), signedBy(platform2, body, clock.now()), body, clock.now())).toEqual({
      ok: true,
    })

    // A certificate past its expire_time is not used (the configured fallback still is).
    clock.set(new Date('2031-11-02T00:00:00+08:00'))
    expect(store.knows(W.platform2Serial)).toBe(false)
    expect(store.knows(W.platformSerial)).toBe(true)

    // A download that does not verify (signed with a key it does not list and we do not know) changes nothing.
    clock.reset()
    answer = listed([W.platform2Certificate])
    const forged = createCertificateStore({
      apiV3Key: W.apiV3Key,
      configured: { certificates: [], publicKey: null },
      download: async () => {
        const text = JSON.stringify(answer)
        return {
          headers: signedBy({ serial: W.platform2Serial, privateKey: W.merchantPrivateKey }, text, clock.now()),
          body: text,
        }
      },
      now: clock.now,
    })
    expect(await forged.refresh()).toBe(false)
    expect(forged.status()).toMatchObject({ serials: [], refreshedAt: null })
    expect(forged.status().lastError).toMatch(/failed verification/)
  })
})

/** The adapter against the simulator in certificate mode, with nothing configured but the APIv3 key. */
describe('WeChat Pay adapter downloading platform certificates', () => {
  const clock = testClock()
  let app: FastifyInstance
  let sim: WechatPaySimulator
  let wechat: WechatPayProvider
  const certificateFetches = () =>
    sim.requests.filter((r) => r.method === 'GET' && r.path === '/v3/certificates').length

  beforeEach(async () => {
    clock.reset()
    app = Fastify({ logger: false })
    sim = createWechatPaySimulator({
      mchid: W.mchid,
      merchantSerial: W.merchantSerial,
      merchantPublicKey: W.merchantPublicKey,
      apiV3Key: W.apiV3Key,
      signWith: 'certificate',
      platform: platform1,
      nextPlatform: platform2,
      publicKey: { id: W.publicKeyId, privateKey: W.publicKeyPrivate },
      publicBase: () => `http://localhost${WECHATPAY_SIM_PREFIX}`,
      now: clock.now,
      fetch: injectFetch(() => app),
      retryDelaysMs: [],
    })
    await app.register(sim.plugin, { prefix: WECHATPAY_SIM_PREFIX })
    await app.ready()
    wechat = createWechatPay({
      mchid: W.mchid,
      appId: 'wx_simulated_app',
      apiBase: `http://localhost${WECHATPAY_SIM_PREFIX}`,
      privateKey: loadPrivateKey(W.merchantPrivateKey),
      serialNo: W.merchantSerial,
      apiV3Key: W.apiV3Key,
      verifier: { certificates: [], publicKey: null },
      downloadCertificates: true,
      fetch: injectFetch(() => app),
      now: clock.now,
    })
  })

  afterEach(async () => {
    await app.close()
  })

  /** A paid trade at the simulator (its notification built, not sent). */
  async function paidTrade(orderNo: string): Promise<SimTrade> {
    await wechat.prepay({
      method: 'wechat_native',
      orderNo,
      description: '课程',
      amountFen: 100,
      expiresAt: new Date(clock.now().getTime() + 1_800_000),
      notifyUrl: 'http://localhost/api/pay/notify/wechat',
      returnUrl: 'http://localhost/payRedirect',
      quitUrl: 'http://localhost/',
      clientIp: '127.0.0.1',
    })
    const trade = sim.trades.get(orderNo)!
    trade.state = 'SUCCESS'
    trade.transactionId = `4200${Date.now()}${crypto.randomInt(1e6)}`
    trade.successTime = clock.now()
    return trade
  }

  it('downloads the certificates on the first answer it cannot verify, then verifies notifications with them', async () => {
    expect(wechat.certificates.status()).toMatchObject({ downloads: true, serials: [] })
    const trade = await paidTrade('ZX2026112200000101')
    expect(certificateFetches()).toBe(1)
    expect(wechat.certificates.status().serials).toEqual([W.platformSerial])
    await expect(wechat.verifyPayment(received(sim.paymentNotification(trade)))).resolves.toMatchObject({
      orderNo: trade.outTradeNo,
      success: true,
      amountFen: 100,
    })
    expect(certificateFetches()).toBe(1)
  })

  it('rotation: a notification signed with the new platform certificate is accepted after an automatic refresh', async () => {
    const trade = await paidTrade('ZX2026112200000102')
    expect(certificateFetches()).toBe(1)
    sim.rotatePlatformCertificate()
    expect(sim.platformSerial()).toBe(W.platform2Serial)
    clock.advance(2 * 60_000)
    const n = received(sim.paymentNotification(trade))
    expect(n.headers['wechatpay-serial']).toBe(W.platform2Serial)
    await expect(wechat.verifyPayment(n)).resolves.toMatchObject({ orderNo: trade.outTradeNo })
    expect(certificateFetches()).toBe(2)
    expect(wechat.certificates.status().serials.sort()).toEqual([W.platformSerial, W.platform2Serial].sort())
    // Answers are signed with the new certificate too, and verify without another download.
    await expect(wechat.query(trade.outTradeNo)).resolves.toMatchObject({ state: 'paid' })
    expect(certificateFetches()).toBe(2)
  })

  it('a new serial within a minute of the last download waits (refused; WeChat Pay sends again) instead of downloading', async () => {
    const trade = await paidTrade('ZX2026112200000103')
    sim.rotatePlatformCertificate()
    clock.advance(30_000)
    await expect(wechat.verifyPayment(received(sim.paymentNotification(trade)))).rejects.toMatchObject({
      outcome: 'bad_signature',
      message: `unknown serial ${W.platform2Serial}`,
    })
    expect(certificateFetches()).toBe(1)
    clock.advance(31_000)
    await expect(wechat.verifyPayment(received(sim.paymentNotification(trade)))).resolves.toMatchObject({
      orderNo: trade.outTradeNo,
    })
    expect(certificateFetches()).toBe(2)
  })

  it('a flood of notifications with made-up serials downloads at most once a minute', async () => {
    const trade = await paidTrade('ZX2026112200000104')
    const good = received(sim.paymentNotification(trade))
    const forged = () => ({
      headers: { ...good.headers, 'wechatpay-serial': crypto.randomBytes(20).toString('hex').toUpperCase() },
      body: good.body,
    })
    const flood = async (n: number) => {
      const results = await Promise.allSettled(Array.from({ length: n }, () => wechat.verifyPayment(forged())))
      for (const r of results) {
        expect(r.status).toBe('rejected')
        expect((r as PromiseRejectedResult).reason).toBeInstanceOf(NotificationError)
      }
    }
    clock.advance(61_000)
    await flood(50)
    expect(certificateFetches()).toBe(2)
    clock.advance(30_000)
    await flood(50)
    await flood(50)
    expect(certificateFetches()).toBe(2)
    clock.advance(31_000)
    await flood(50)
    expect(certificateFetches()).toBe(3)
    // The real certificate verifies throughout, without a download.
    await expect(wechat.verifyPayment(good)).resolves.toMatchObject({ orderNo: trade.outTradeNo })
    expect(certificateFetches()).toBe(3)
  })

  it('refreshes every 12 hours in the background, without holding up verification', async () => {
    const trade = await paidTrade('ZX2026112200000105')
    clock.advance(11 * 3600_000)
    await wechat.verifyPayment(received(sim.paymentNotification(trade)))
    expect(certificateFetches()).toBe(1)
    clock.advance(3600_000 + 1000)
    const refreshedBefore = wechat.certificates.status().refreshedAt!.getTime()
    await expect(wechat.verifyPayment(received(sim.paymentNotification(trade)))).resolves.toMatchObject({
      orderNo: trade.outTradeNo,
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(certificateFetches()).toBe(2)
    expect(wechat.certificates.status().refreshedAt!.getTime()).toBeGreaterThan(refreshedBefore)
  })

  it('keeps working with a configured certificate when the download fails', async () => {
    const failing: typeof fetch = async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
      if (url.endsWith('/v3/certificates'))
        return new Response('{"code":"SYSTEM_ERROR","message":"系统繁忙"}', { status: 500 })
      return injectFetch(() => app)(input, init)
    }
    const configured = createWechatPay({
      mchid: W.mchid,
      appId: 'wx_simulated_app',
      apiBase: `http://localhost${WECHATPAY_SIM_PREFIX}`,
      privateKey: loadPrivateKey(W.merchantPrivateKey),
      serialNo: W.merchantSerial,
      apiV3Key: W.apiV3Key,
      verifier: { certificates: [loadCertificate(W.platformCertificate)], publicKey: null },
      downloadCertificates: true,
      fetch: failing,
      now: clock.now,
    })
    const trade = await paidTrade('ZX2026112200000106')
    await expect(configured.verifyPayment(received(sim.paymentNotification(trade)))).resolves.toMatchObject({
      orderNo: trade.outTradeNo,
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(configured.certificates.status()).toMatchObject({ serials: [W.platformSerial], refreshedAt: null })
    expect(configured.certificates.status().lastError).toMatch(/HTTP 500/)
  })
})

describe('WECHATPAY_PLATFORM_CERT_DOWNLOAD', () => {
  const ctx = { production: true, publicUrl: 'https://zixue.example.com', wechatAppId: 'wx1234567890abcdef' }
  const merchant = {
    WECHATPAY_MCHID: W.mchid,
    WECHATPAY_PRIVATE_KEY: W.merchantPrivateKey,
    WECHATPAY_CERT_SERIAL: W.merchantSerial,
    WECHATPAY_APIV3_KEY: W.apiV3Key,
  }
  const configure = (env: Record<string, string>, production = true) =>
    paymentConfig(paymentEnvSchema.parse(env), { ...ctx, production })

  it('downloads by default when no WeChat Pay public key is configured (platform-certificate mode)', () => {
    const { config, problems } = configure(merchant)
    expect(problems.filter((p) => p.includes('WECHATPAY'))).toEqual([])
    expect(config.wechat).toMatchObject({ downloadCertificates: true, verifier: { certificates: [], publicKey: null } })
    const withCert = configure({ ...merchant, WECHATPAY_PLATFORM_CERT: W.platformCertificate }).config.wechat
    expect(withCert.downloadCertificates).toBe(true)
    expect(withCert.verifier.certificates.map((c) => c.serial)).toEqual([W.platformSerial])
  })

  it('does not download in public-key mode unless told to, and wants some key when switched off', () => {
    const publicKeyMode = { ...merchant, WECHATPAY_PUBLIC_KEY: W.publicKey, WECHATPAY_PUBLIC_KEY_ID: W.publicKeyId }
    expect(configure(publicKeyMode).config.wechat.downloadCertificates).toBe(false)
    expect(
      configure({ ...publicKeyMode, WECHATPAY_PLATFORM_CERT_DOWNLOAD: 'true' }).config.wechat.downloadCertificates,
    ).toBe(true)
    const off = configure({ ...merchant, WECHATPAY_PLATFORM_CERT_DOWNLOAD: 'false' })
    expect(off.problems.some((p) => p.includes('WECHATPAY_PUBLIC_KEY:'))).toBe(true)
    expect(() => paymentEnvSchema.parse({ WECHATPAY_PLATFORM_CERT_DOWNLOAD: 'sometimes' })).toThrow()
  })

  it('the simulator signs with its public key, or with its platform certificate when downloads are on', () => {
    expect(configure({}, false).config.wechat).toMatchObject({
      simulated: true,
      downloadCertificates: false,
      simulatorSignWith: 'public_key',
    })
    expect(configure({ WECHATPAY_PLATFORM_CERT_DOWNLOAD: 'true' }, false).config.wechat).toMatchObject({
      simulated: true,
      downloadCertificates: true,
      simulatorSignWith: 'certificate',
    })
  })
})
