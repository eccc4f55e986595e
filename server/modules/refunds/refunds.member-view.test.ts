import { describe, expect, it, vi } from 'vitest'
import {
  headersOf,
  paidCourse,
  settleSimulators,
  until,
  useCommerceApp,
  type ApiBody,
} from '#server/modules/payments/testing.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'

interface Brief {
  refund_no: string
  state: string
  amount_fen: number
  reason: string
  note: string | null
}
interface OrderWithRefund {
  order_no: string
  state: string
  refund: Brief | null
}

/** What a member reads of their refunds on their orders (issue 10 §1): in the list and in the detail. */
describe('refund state on GET /api/orders and /api/orders/:order_no', () => {
  const { t } = useCommerceApp()
  const sims = () => t().app.paymentSimulators!

  const call = async <T>(method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) => {
    const res = await t().app.inject({ method, url, headers: headersOf(token), payload })
    return res.json<ApiBody<T>>()
  }
  const detail = async (token: string, orderNo: string) =>
    (await call<OrderWithRefund>('GET', `/api/orders/${orderNo}`, token)).data
  const listed = async (token: string, orderNo: string) =>
    (await call<{ list: OrderWithRefund[] }>('GET', '/api/orders?kind=course', token)).data.list.find(
      (o) => o.order_no === orderNo,
    )!

  it('shows a request under review, then a rejection with the operator’s note', async () => {
    const admin = await makeMember(t().database.db, 'admin')
    const { m, orderNo } = await paidCourse(t, { priceFen: 6600 })
    expect((await detail(m.token, orderNo)).refund).toBeNull()
    const asked = (
      await call<{ refund_no: string }>('POST', '/api/refunds', m.token, { order_no: orderNo, reason: '买错了' })
    ).data
    const requested = { refund_no: asked.refund_no, state: 'requested', amount_fen: 6600, reason: '买错了', note: null }
    expect((await detail(m.token, orderNo)).refund).toEqual(requested)
    expect((await listed(m.token, orderNo)).refund).toEqual(requested)
    // The list reads each order's newest refund in the statement that reads the page (the session is cached).
    const spy = vi.spyOn(t().database.pool, 'query')
    try {
      expect((await listed(m.token, orderNo)).refund).toEqual(requested)
      expect(spy.mock.calls.length).toBe(1)
    } finally {
      spy.mockRestore()
    }
    await call('POST', `/api/admin/refunds/${asked.refund_no}/reject`, admin.token, { note: '课程已学习超过 20%' })
    expect((await listed(m.token, orderNo)).refund).toMatchObject({ state: 'rejected', note: '课程已学习超过 20%' })
    // Asked again: the list and the detail show the newest request, not the rejected one.
    const again = (
      await call<{ refund_no: string }>('POST', '/api/refunds', m.token, { order_no: orderNo, reason: '再申请一次' })
    ).data
    const newest = { refund_no: again.refund_no, state: 'requested', reason: '再申请一次' }
    expect((await listed(m.token, orderNo)).refund).toMatchObject(newest)
    expect((await detail(m.token, orderNo)).refund).toMatchObject(newest)
  })

  it('shows a refund the provider refused as 退款失败 with a reason for the member, then its success', async () => {
    const admin = await makeMember(t().database.db, 'admin')
    const { m, orderNo } = await paidCourse(t, { priceFen: 8800 })
    const asked = (
      await call<{ refund_no: string }>('POST', '/api/refunds', m.token, { order_no: orderNo, reason: '不想学了' })
    ).data
    sims().wechat.faults.refundError = {
      status: 403,
      code: 'NOT_ENOUGH',
      message: '基本账户余额不足，请充值后重新发起',
    }
    try {
      await call('POST', `/api/admin/refunds/${asked.refund_no}/approve`, admin.token, {})
    } finally {
      sims().wechat.faults.refundError = null
    }
    const failed = (await detail(m.token, orderNo)).refund!
    expect(failed).toMatchObject({ state: 'failed', amount_fen: 8800 })
    // The merchant's "余额不足，请充值" is not the member's business: they read what happens next.
    expect(failed.note).toBe('原路退回暂未成功，工作人员会尽快重新处理；如有疑问请联系客服')
    expect((await listed(m.token, orderNo)).refund).toMatchObject({ state: 'failed' })

    await call('POST', `/api/admin/refunds/${asked.refund_no}/retry`, admin.token)
    await until(async () => (await detail(m.token, orderNo)).state === 'refunded')
    await settleSimulators(t().app)
    const done = await detail(m.token, orderNo)
    expect(done.state).toBe('refunded')
    expect(done.refund).toMatchObject({ state: 'succeeded', note: null })
  })
})
