import { describe, expect, it } from 'vitest'
import { doudianSign, doudianTimestamp, douyinPushSignature, sortedJson, verifyDouyinPush } from './douyin-sign.ts'

// Vectors computed outside this code (Python hashlib/hmac) with our own test secrets.
const PUSH_SECRET = 'test-douyin-secret-0001'
const PUSH_BODY =
  '{"event":"life_trade_certificate_notify","client_key":"awtest","content":"{\\"action\\":\\"refund_success\\"}"}'
const PUSH_SIGNATURE = 'f7c08858de08088c266ee5024121aa29eeb92d19'

describe('Douyin push signature (X-Douyin-Signature = sha1(client_secret + body))', () => {
  it('matches the vector', () => expect(douyinPushSignature(PUSH_SECRET, PUSH_BODY)).toBe(PUSH_SIGNATURE))
  it('accepts the vector, in either case', () => {
    expect(verifyDouyinPush(PUSH_SECRET, PUSH_BODY, PUSH_SIGNATURE)).toBe(true)
    expect(verifyDouyinPush(PUSH_SECRET, PUSH_BODY, PUSH_SIGNATURE.toUpperCase())).toBe(true)
  })
  it.each([
    ['another secret', 'test-douyin-secret-0002', PUSH_BODY, PUSH_SIGNATURE],
    ['a changed body', PUSH_SECRET, PUSH_BODY.replace('refund_success', 'verify'), PUSH_SIGNATURE],
    ['a body with a space added', PUSH_SECRET, `${PUSH_BODY} `, PUSH_SIGNATURE],
    ['no header', PUSH_SECRET, PUSH_BODY, undefined],
    ['a malformed header', PUSH_SECRET, PUSH_BODY, 'zz'],
  ])('refuses %s', (_what, secret, body, header) => expect(verifyDouyinPush(secret, body, header)).toBe(false))
})

describe('Doudian request signature (hmac-sha256 over secret + app_key…method…param_json…timestamp…v + secret)', () => {
  const signed = {
    app_key: '7200000000000000009',
    method: 'order.orderDetail',
    param_json: '{"shop_order_id":"6949590647158888888"}',
    timestamp: '2026-11-26 10:00:00',
    v: '2' as const,
  }
  it('matches the vector', () =>
    expect(doudianSign('test-doudian-secret-0002', signed)).toBe(
      'df77a7460a9364cdbfb6c7187600fc0fd122307a7720339cb8a655d69b81c3a0',
    ))
  it('changes with any parameter', () =>
    expect(doudianSign('test-doudian-secret-0002', { ...signed, timestamp: '2026-11-26 10:00:01' })).not.toBe(
      'df77a7460a9364cdbfb6c7187600fc0fd122307a7720339cb8a655d69b81c3a0',
    ))
  it('signs param_json with its keys sorted and no spaces', () =>
    expect(sortedJson({ size: 100, page: 0, nested: { b: 1, a: [2, { d: 1, c: 2 }] } })).toBe(
      '{"nested":{"a":[2,{"c":2,"d":1}],"b":1},"page":0,"size":100}',
    ))
  it('stamps Beijing time', () =>
    expect(doudianTimestamp(new Date('2026-11-26T02:00:00Z'))).toBe('2026-11-26 10:00:00'))
})
