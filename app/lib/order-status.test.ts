import { describe, expect, it } from 'vitest'
import { orderStatus, type Order } from './pay.ts'

type Refund = NonNullable<Order['refund']>
const refund = (state: Refund['state'], note: string | null = null): Refund => ({
  refund_no: 'RF1',
  state,
  amount_fen: 9900,
  reason: '买错了',
  note,
})

describe('orderStatus (the state a member reads on /order, refunds included)', () => {
  it.each<[Order['state'], Refund | null, string, string | null]>([
    ['paid', null, '已支付', null],
    ['paid', refund('requested'), '退款审核中', null],
    ['refunding', refund('processing'), '退款中', null],
    ['paid', refund('failed', '原路退回暂未成功'), '退款失败', '原路退回暂未成功'],
    ['paid', refund('rejected', '已学习超过 20%'), '已支付', '退款未通过：已学习超过 20%'],
    ['refunded', refund('succeeded'), '已退款', null],
    ['partially_refunded', refund('succeeded'), '部分退款', null],
  ])('%s with a %o refund reads %s', (state, r, label, note) => {
    expect(orderStatus({ state, refund: r })).toMatchObject({ label, note })
  })
})
