import { describe, expect, it } from 'vitest'
import { fenToYuan, yuanToFen } from '#shared/money.ts'
import { beijingDateTime } from '#shared/time.ts'
import {
  parseAlipayTime,
  responseSignedText,
  signContent,
  signParams,
  verifyNotificationParams,
  verifyRequestParams,
} from './alipay-crypto.ts'
import { loadCertificate, loadPrivateKey, loadPublicKey } from './keys.ts'
import { TestAlipay as A, TestWechatPay as W } from './test-keys/test-keys.ts'
import {
  decryptResource,
  encryptResource,
  jsapiPayParams,
  parseAuthorization,
  requestAuthorization,
  rsaVerify,
  signatureMessage,
  signResponse,
  verifyPaySign,
  verifyWechatpaySignature,
  type WechatpayVerifierKeys,
} from './wechatpay-crypto.ts'

// Vectors made once with the committed test keys. RSA PKCS#1 v1.5 signatures are deterministic, so a change in
// what we sign (a missing "\n", another field order) changes these strings.
const V = {
  authorization:
    'WECHATPAY2-SHA256-RSA2048 mchid="1900000109",nonce_str="593BEC0C930BF1AFEB40B4A08C8FB242",signature="wXszAbtABJ6j4K/2YYGZ14sWXFQ1zVuU+NVYL3TXJ3kcI88FG8LtnpzQsZ/BI4GDws7/vs7ORDKbFlWCMA1BdbKvkd+ZJIxzEIPR0taFZPxfGbBmqzpzVqwN+Ij8DWVh5Z6+SgBGa98AJoan/wh63vTn6581v3jsZEa2/qGaHCHpb6LqmgUsofJwSTkDOXg1m/ybPUuH1DZ09s7lh8wEogCpA0MVzgGPQ0BoaB5qq0U+ocPYL7UWnqOIBMiqW5xyySbSWEfF69ekx7yAfizVKtQ1cQrb/T+d9/6QGyTPyb9+jN+Qat1aAIc4expWOZP1AQ2XmHdDDG7aqjRQNmy8uA==",timestamp="1795334400",serial_no="3775B6A45ACD588826D15E583A95F5DD2C4A5E31"',
  paySign:
    'TY91Yrp9NdCvbA/S7fNs2lmXcXrSvBYg+H3Jm55lW0tsRN7xuOqlfnOhgZQtxMk7Slq2OuSa7WZ80Wt714VxHkweAnvSV5wHgcgaDQWewGeUHPFB8q1DGmHY1XL/HDCJiTg8TA++tg28ReW7d3Dxxp8/mpKvBHIG8h2FaaSXY7/fJI8QM2tV3mWzuIWuR+IgpOOXK4PgvFU45IN3kZ2T408hw7njoflYPf4sh4+b1UAGbc21DwMnnz34Vp6Zh3z7kwnVeVQyzf1areDI9Vp4VeDlUtXBPYpfAA73bUnL0d1JapllWeWvXzdku26Q+5yZCuSJipz1o9vmtLsNYXjW9g==',
  resource: {
    algorithm: 'AEAD_AES_256_GCM',
    ciphertext:
      'IZiXNea3YlYzDKoh4VacyVeSKz1LcxQOTHS7/ajBcD+PKHXK91kZ4bYMn2E8Cx8Ca/Yks1Bm3/XZJZ88M7vOkSTg4RjeHNbEA9k/MJA=',
    nonce: 'fdasflkja484',
    associated_data: 'transaction',
    original_type: 'transaction',
  },
  resourcePlain: '{"out_trade_no":"ZX2026112200000001","trade_state":"SUCCESS"}',
  publicKeySignature:
    'pQcZeQJETikcHEI7rXc+g5JTuJgZDWyTG8orpHAT3/kSoaXq9/R1oGDrXZ0DzkO6+l5VPVUVtJ79rZn6pMYqR3I3zoXFmzANV6m3T/N5104ealW88EHkvVyzz029Y61w3/tF5uLgOqPgXCC2fEpuMWM1FTiUUkr1jIwjcSeMb45vyMix0TgRpe+MqtoB5Lr46zX6MC9ZNlTunABLWcX7L+nylnPKihZ+saAKX3HPRVb1aUHW7LShXU4hcEhSMoY2DynPazr38Zj5EkkuJRQmSNfWDUq5QV1FAmYQZHduqp7hCevilArMldAUYC5VgslujtkP4V1zHUIYj8LE5+4lXw==',
  certificateSignature:
    'mUBRawqxk8ClEkmCIWviaAjxi6mpb9wIPICZQeWm5fglbFTQAa8rn4StEVyDqDSKFaW3/fZKk25PSzEGlpCf+r53UeErO9McWGdGZDqYxX/23ADvFylHfhc4sTVKDTGKtu8OR57OBaeykA4KcFoJbB2t48MKHbDexlL5IUCMYi+jiyLffQrYrRV2y0hPcBH28bgMlUJHCDBFcS91YxYPpUXWH4XOE+xqu9lkC1hCfrA5j+CFfAqw0L9UEn84dbWC4wQwaoIhAW60pC+vvS24Q0IDIVLAtbsjcpLlO3Q7KRXFCkfDmQHPNE/+fzCqjqRftSpR2hhQvkygubMpNRocYw==',
  alipayRequestSign:
    'YoNlDC7Hlu4GdgAAiFeJax9cumd02oa8NF5W4Oyb9H4HW2FygqVrPq9OL8OWMWm+EVISHcpEngQCyqZT1zWMI+U8tzVDVR/y964ZacMCkgtrypMvCprgbUH87FEQLr0WHQKzc5Z7iG+RwZC8QhT3lZfA5K7Rqln/nE4FBpxDJRiWESCMt5qjSBZpIOjAfiiZv5SijNpVqi6GK3vQNrz5kRw2bYHS5vpHVzX3RGMLN7AE/Evymeic3YhbOgN/WWCZUh1j5g1KpGdV3nPe8M80MAiruu3zUgoRKUL8+eLoKti+3UVoGU0Wj7Md+PGdJi6VGdlWMXjoyyVCsijBbeq0/g==',
  alipayNotifySign:
    'TSPGhuWzh87IvdiXV7sxjfUUoIBm/07k2K+S17yYJTmyn7dwHANNOU32jFzz+BkRLBsNFtZqLUbfmLxDZyIh+Tbim8wgDBDJVnWcDm7gDzwq6uR/2PduK8FQlLPQR6JfDxX5+h7tALs7uiANKT3FM2ZXvcDy6ZszKDTscXkw8/k+hZdpVYgXnyz+yjTOqmtGHXBCaM/re2e/JSlMuVWHr9RPEvFakSVnB4Ea5FFLSiY7deF98MJe7aQgQAiMp7akxbPs3EXFOvFo7ibzcjjm46B2QdLTlsCrRJiSb+OOsf1DBYExTaL8AACtLcalCiE3s+yqvU9R1Mzt7lEUPtZETg==',
}

const at = new Date(1795334400 * 1000)

const verifier: WechatpayVerifierKeys = {
  certificates: [loadCertificate(W.platformCertificate)],
  publicKey: { id: W.publicKeyId, key: loadPublicKey(W.publicKey) },
}

describe('WeChat Pay v3 request signing', () => {
  it('builds the WECHATPAY2-SHA256-RSA2048 Authorization header of the documented message', () => {
    const header = requestAuthorization({
      mchid: W.mchid,
      serialNo: W.merchantSerial,
      privateKey: W.merchantPrivateKey,
      method: 'POST',
      url: '/v3/pay/transactions/jsapi',
      body: '{"appid":"wx_simulated_app"}',
      timestamp: 1795334400,
      nonce: '593BEC0C930BF1AFEB40B4A08C8FB242',
    })
    expect(header).toBe(V.authorization)
  })

  it('signs "METHOD\\nURL\\nTIMESTAMP\\nNONCE\\nBODY\\n" (verifiable with the merchant public key)', () => {
    const parsed = parseAuthorization(V.authorization)!
    expect(parsed).toMatchObject({ mchid: W.mchid, serialNo: W.merchantSerial, timestamp: '1795334400' })
    const message =
      'POST\n/v3/pay/transactions/jsapi\n1795334400\n593BEC0C930BF1AFEB40B4A08C8FB242\n{"appid":"wx_simulated_app"}\n'
    expect(
      signatureMessage([
        'POST',
        '/v3/pay/transactions/jsapi',
        '1795334400',
        '593BEC0C930BF1AFEB40B4A08C8FB242',
        '{"appid":"wx_simulated_app"}',
      ]),
    ).toBe(message)
    expect(rsaVerify(W.merchantPublicKey, message, parsed.signature)).toBe(true)
    expect(rsaVerify(W.merchantPublicKey, message.replace('jsapi', 'h5'), parsed.signature)).toBe(false)
  })

  it('refuses an Authorization header of another scheme or with a field missing', () => {
    expect(parseAuthorization('Bearer x')).toBeNull()
    expect(
      parseAuthorization('WECHATPAY2-SHA256-RSA2048 mchid="1",nonce_str="n",timestamp="1",serial_no="s"'),
    ).toBeNull()
    expect(parseAuthorization(undefined)).toBeNull()
  })
})

describe('JSAPI paySign', () => {
  const params = jsapiPayParams({
    appId: 'wx_simulated_app',
    prepayId: 'wx201410272009395522657a690389285100',
    privateKey: W.merchantPrivateKey,
    timestamp: 1795334400,
    nonce: '5K8264ILTKCH16CQ2502SI8ZNMTM67VS',
  })

  it('signs "appId\\ntimeStamp\\nnonceStr\\npackage\\n" with the merchant key, signType RSA', () => {
    expect(params).toEqual({
      appId: 'wx_simulated_app',
      timeStamp: '1795334400',
      nonceStr: '5K8264ILTKCH16CQ2502SI8ZNMTM67VS',
      package: 'prepay_id=wx201410272009395522657a690389285100',
      signType: 'RSA',
      paySign: V.paySign,
    })
    expect(verifyPaySign(params, W.merchantPublicKey)).toBe(true)
  })

  it('does not verify when any signed field changes', () => {
    expect(verifyPaySign({ ...params, package: 'prepay_id=wx2' }, W.merchantPublicKey)).toBe(false)
    expect(verifyPaySign({ ...params, timeStamp: '1795334401' }, W.merchantPublicKey)).toBe(false)
    expect(verifyPaySign(params, W.platformCertificate)).toBe(false)
  })
})

describe('WeChat Pay answer and notification signatures', () => {
  const body = '{"prepay_id":"wx1"}'
  const headers = (signature: string, serial: string, timestamp = '1795334400') => ({
    timestamp,
    nonce: 'N1',
    signature,
    serial,
  })

  it('verifies a body signed with the WeChat Pay public key (PUB_KEY_ID_…)', () => {
    const signed = signResponse({
      privateKey: W.publicKeyPrivate,
      serial: W.publicKeyId,
      body,
      timestamp: 1795334400,
      nonce: 'N1',
    })
    expect(signed['Wechatpay-Signature']).toBe(V.publicKeySignature)
    expect(verifyWechatpaySignature(verifier, headers(V.publicKeySignature, W.publicKeyId), body, at)).toEqual({
      ok: true,
    })
  })

  it('verifies a body signed with the platform certificate, found by its serial', () => {
    expect(verifyWechatpaySignature(verifier, headers(V.certificateSignature, W.platformSerial), body, at)).toEqual({
      ok: true,
    })
    expect(
      verifyWechatpaySignature(verifier, headers(V.certificateSignature, W.platformSerial.toLowerCase()), body, at),
    ).toEqual({ ok: true })
  })

  it('refuses a changed body, a swapped key, an unknown serial and missing headers', () => {
    expect(
      verifyWechatpaySignature(verifier, headers(V.publicKeySignature, W.publicKeyId), '{"prepay_id":"wx2"}', at),
    ).toMatchObject({ ok: false, reason: 'bad_signature' })
    expect(verifyWechatpaySignature(verifier, headers(V.publicKeySignature, W.platformSerial), body, at)).toMatchObject(
      { ok: false, reason: 'bad_signature' },
    )
    expect(
      verifyWechatpaySignature(verifier, headers(V.publicKeySignature, 'PUB_KEY_ID_0000'), body, at),
    ).toMatchObject({ ok: false, detail: 'unknown serial PUB_KEY_ID_0000' })
    expect(verifyWechatpaySignature(verifier, null, body, at)).toMatchObject({ ok: false, reason: 'bad_signature' })
    expect(
      verifyWechatpaySignature(
        { certificates: [], publicKey: null },
        headers(V.publicKeySignature, W.publicKeyId),
        body,
        at,
      ),
    ).toMatchObject({ ok: false })
  })

  it('accepts a timestamp less than 5 minutes off either way and refuses exactly 5 minutes or more', () => {
    const plus = (s: number) => new Date(at.getTime() + s * 1000)
    const check = (s: number) =>
      verifyWechatpaySignature(verifier, headers(V.publicKeySignature, W.publicKeyId), body, plus(s))
    expect(check(299).ok).toBe(true)
    expect(check(-299).ok).toBe(true)
    expect(check(299.999).ok).toBe(true)
    expect(check(300)).toMatchObject({ ok: false, reason: 'bad_timestamp' })
    expect(check(-300)).toMatchObject({ ok: false, reason: 'bad_timestamp' })
    expect(check(301)).toMatchObject({ ok: false, reason: 'bad_timestamp' })
    expect(
      verifyWechatpaySignature(verifier, headers(V.publicKeySignature, W.publicKeyId, 'abc'), body, at),
    ).toMatchObject({ ok: false, reason: 'bad_timestamp' })
  })
})

describe('AEAD_AES_256_GCM resource decryption', () => {
  it('decrypts the vector with the APIv3 key, nonce and associated data', () => {
    expect(decryptResource(V.resource, W.apiV3Key)).toBe(V.resourcePlain)
    expect(encryptResource(V.resourcePlain, W.apiV3Key, V.resource.nonce, 'transaction', 'transaction')).toEqual(
      V.resource,
    )
  })

  it('fails on another key, changed associated data, a changed byte or another algorithm', () => {
    expect(() => decryptResource(V.resource, 'x'.repeat(32))).toThrow()
    expect(() => decryptResource({ ...V.resource, associated_data: 'refund' }, W.apiV3Key)).toThrow()
    const bytes = Buffer.from(V.resource.ciphertext, 'base64')
    bytes[3] = bytes[3]! ^ 1
    expect(() => decryptResource({ ...V.resource, ciphertext: bytes.toString('base64') }, W.apiV3Key)).toThrow()
    expect(() => decryptResource({ ...V.resource, algorithm: 'AES_128_CBC' }, W.apiV3Key)).toThrow(/unsupported/)
  })
})

describe('Alipay RSA2', () => {
  const request = {
    app_id: A.appId,
    method: 'alipay.trade.wap.pay',
    charset: 'utf-8',
    sign_type: 'RSA2',
    timestamp: '2026-11-22 16:00:00',
    version: '1.0',
    biz_content: '{"out_trade_no":"ZX2026112200000001","total_amount":"99.00"}',
  }

  it('signs the sorted k=v content without URL encoding, leaving out sign and empty values', () => {
    expect(signContent({ ...request, empty: '', sign: 'x' })).toBe(
      'app_id=2021000199999999&biz_content={"out_trade_no":"ZX2026112200000001","total_amount":"99.00"}&charset=utf-8&method=alipay.trade.wap.pay&sign_type=RSA2&timestamp=2026-11-22 16:00:00&version=1.0',
    )
    expect(signParams(request, A.appPrivateKey)).toBe(V.alipayRequestSign)
    expect(verifyRequestParams({ ...request, sign: V.alipayRequestSign }, A.appPublicKey)).toBe(true)
    expect(
      verifyRequestParams({ ...request, timestamp: '2026-11-22 16:00:01', sign: V.alipayRequestSign }, A.appPublicKey),
    ).toBe(false)
  })

  it('verifies a notification without sign and sign_type in the content, with Alipay public key only', () => {
    const n = {
      notify_id: 'abc',
      out_trade_no: 'ZX2026112200000001',
      total_amount: '99.00',
      trade_status: 'TRADE_SUCCESS',
      sign_type: 'RSA2',
      app_id: A.appId,
    }
    expect(verifyNotificationParams({ ...n, sign: V.alipayNotifySign }, A.gatewayPublicKey)).toBe(true)
    expect(verifyNotificationParams({ ...n, total_amount: '0.01', sign: V.alipayNotifySign }, A.gatewayPublicKey)).toBe(
      false,
    )
    expect(verifyNotificationParams({ ...n, sign: V.alipayNotifySign }, A.appPublicKey)).toBe(false)
    expect(verifyNotificationParams({ ...n, sign_type: 'RSA', sign: V.alipayNotifySign }, A.gatewayPublicKey)).toBe(
      false,
    )
    expect(verifyNotificationParams(n, A.gatewayPublicKey)).toBe(false)
  })

  it("finds the exact signed text of an answer's response member", () => {
    const inner = '{"code":"10000","msg":"Success","note":"a \\"}\\" b","nested":{"x":1}}'
    expect(
      responseSignedText(`{"alipay_trade_query_response":${inner},"sign":"abc"}`, 'alipay_trade_query_response'),
    ).toBe(inner)
    expect(responseSignedText('{"sign":"abc"}', 'alipay_trade_query_response')).toBeNull()
  })

  it('converts fen and yuan exactly (Alipay amounts: #shared/money.ts)', () => {
    expect(fenToYuan(0)).toBe('0.00')
    expect(fenToYuan(5)).toBe('0.05')
    expect(fenToYuan(19990)).toBe('199.90')
    expect(fenToYuan(5_000_000)).toBe('50000.00')
    expect(() => fenToYuan(1.5)).toThrow()
    expect(yuanToFen('199.9')).toBe(19990)
    expect(yuanToFen('0.01')).toBe(1)
    expect(yuanToFen('12')).toBe(1200)
    expect(yuanToFen('1.234')).toBeNull()
    expect(yuanToFen('-1.00')).toBeNull()
    expect(yuanToFen(undefined)).toBeNull()
  })

  it('writes and reads Alipay timestamps in Beijing time (#shared/time.ts writes them)', () => {
    expect(beijingDateTime(new Date('2026-11-22T08:00:00Z'))).toBe('2026-11-22 16:00:00')
    expect(parseAlipayTime('2026-11-22 16:00:00')).toEqual(new Date('2026-11-22T08:00:00Z'))
    expect(parseAlipayTime('2026/11/22')).toBeNull()
  })
})

describe('key material from configuration', () => {
  it('reads PEM, bare base64 and certificates', () => {
    const bare = W.merchantPrivateKey.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '')
    const a = loadPrivateKey(W.merchantPrivateKey)
    const b = loadPrivateKey(bare)
    expect(a.export({ format: 'der', type: 'pkcs8' }).equals(b.export({ format: 'der', type: 'pkcs8' }))).toBe(true)
    expect(loadCertificate(W.platformCertificate).serial).toBe(W.platformSerial)
    expect(loadPublicKey(W.platformCertificate).asymmetricKeyType).toBe('rsa')
    expect(() => loadPrivateKey('not a key')).toThrow(/neither/)
    expect(loadPublicKey(A.gatewayPublicKey.replace(/-----[A-Z ]+-----/g, '')).type).toBe('public')
  })
})
