import { describe, expect, it } from 'vitest'
import {
  kuaishouDecryptPush,
  kuaishouEncryptPush,
  kuaishouSign,
  sameText,
  wechatPushSignature,
  xhsSign,
} from './shop-sign.ts'

// Vectors made with our own test secrets, the expected values computed apart from this code (Python hashlib / hmac,
// openssl enc -aes-128-cbc with a zero IV).

describe('Kuaishou request signature', () => {
  const params = {
    access_token: 'ks.test-token',
    appkey: 'ks000000000000000001',
    method: 'open.order.detail',
    param: '{"oid":2417359064731588}',
    timestamp: '1764115200000',
    version: '1',
  }
  it('MD5: sorted k=v&… then &signSecret, lowercase hex', () => {
    expect(kuaishouSign('test-ks-sign-secret', { ...params, signMethod: 'MD5' }, 'MD5')).toBe(
      '17b68b305ccb9b6e1e29b6f1898fd88a',
    )
  })
  it('HMAC_SHA256 keyed by the sign secret, Base64; sign itself and empty values stay out', () => {
    const p = { ...params, signMethod: 'HMAC_SHA256', sign: 'ignored', extra: '' }
    expect(kuaishouSign('test-ks-sign-secret', p, 'HMAC_SHA256')).toBe('R6L8jIfW2io9mLSkSwC/GCIbo2/swko6TZpIpe/7R/M=')
    expect(kuaishouSign('other-secret', p, 'HMAC_SHA256')).not.toBe('R6L8jIfW2io9mLSkSwC/GCIbo2/swko6TZpIpe/7R/M=')
  })
})

describe('Kuaishou push encryption (AES-CBC, zero IV, Base64)', () => {
  const key = 'MDEyMzQ1Njc4OWFiY2RlZg==' // "0123456789abcdef"
  const plain = '{"eventId":"e1","appKey":"ks1","event":"kwaishop_order_statusChange","info":"{\\"oid\\":1}"}'
  const cipher =
    'NDyh7Jj8WuRFJxFbufAX4eFEnu2UCYcQ2YSF/6b7iGaTlpVWqLHZf3+do76uqaVMtCXaNUGfBz7gwvtkMzfw2nTkyVy0cqaXCJl8DdY/GM8KtJyTjJPJQVarBcw9IhDW'
  it('decrypts the vector and encrypts back to it', () => {
    expect(kuaishouDecryptPush(key, cipher)).toBe(plain)
    expect(kuaishouEncryptPush(key, plain)).toBe(cipher)
  })
  it('refuses what another key encrypted, and text that is not ciphertext', () => {
    const other = Buffer.from('fedcba9876543210').toString('base64')
    const decrypted = kuaishouDecryptPush(other, cipher)
    expect(decrypted === null || decrypted !== plain).toBe(true)
    expect(kuaishouDecryptPush(key, '{"eventId":"forged"}')).toBeNull()
  })
})

describe('Xiaohongshu Ark signature', () => {
  it('md5 of method?appId&timestamp&version followed by the secret', () => {
    const p = { method: 'order.getOrderDetail', appId: 'test-xhs-app', timestamp: '1764115200', version: '2.0' }
    expect(xhsSign('test-xhs-secret', p)).toBe('e8fa7ec03f73f32f10932ca3b50fe854')
    expect(xhsSign('test-xhs-secret', { ...p, timestamp: '1764115201' })).not.toBe('e8fa7ec03f73f32f10932ca3b50fe854')
  })
})

describe('WeChat Shop push signature', () => {
  it('sha1 of token, timestamp and nonce sorted and joined', () => {
    expect(wechatPushSignature('testToken', '1764115200', 'nonce123')).toBe('cff4ebe6bfac6a596f5fb7615dfe2d11bc3f199c')
    expect(
      sameText(wechatPushSignature('testToken', '1764115200', 'nonce124'), 'cff4ebe6bfac6a596f5fb7615dfe2d11bc3f199c'),
    ).toBe(false)
    expect(sameText('abc', 'abcd')).toBe(false)
  })
})
