import { describe, expect, it } from 'vitest'
import { readOrderRef } from './paste.ts'

describe('readOrderRef (what buyers paste on /data/tt)', () => {
  it.each([
    ['a bare voucher code', '123456789012', { kind: 'voucher_code', code: '123456789012' }],
    ['a code in groups of four', ' 1234 5678 9012 ', { kind: 'voucher_code', code: '123456789012' }],
    ['a code with dashes', '1234-5678-9012', { kind: 'voucher_code', code: '123456789012' }],
    ['full-width digits', '１２３４５６７８９０１２', { kind: 'voucher_code', code: '123456789012' }],
    [
      'the share text with a price in it',
      '【抖音】我在抖音团购了「PS入门课」¥9.9，券码：1234 5678 9012，复制此消息打开抖音',
      { kind: 'voucher_code', code: '123456789012' },
    ],
    [
      'a Douyin shop order number',
      '订单编号：6949590647158888888 复制',
      { kind: 'order', orderId: '6949590647158888888' },
    ],
    [
      'a voucher link',
      'https://www.iesdouyin.com/share/commerce/coupon/x/?schema_type=13&object_id=I0ZwZEZpb2U1N0p&utm_campaign=a',
      { kind: 'voucher_link', encryptedData: 'I0ZwZEZpb2U1N0p' },
    ],
  ])('reads %s', (_what, pasted, expected) => expect(readOrderRef(pasted)).toEqual(expected))

  it.each([
    ['nothing but words', '我的订单'],
    ['a short number', '券码 12345'],
    ['too long', '1'.repeat(25)],
  ])('finds nothing in %s', (_what, pasted) => expect(readOrderRef(pasted)).toBeNull())
})
