import { describe, expect, it } from 'vitest'
import {
  expectLedgerConsistent,
  headersOf,
  paidCourse,
  settleSimulators,
  useCommerceApp,
  type ApiBody,
} from '#server/modules/payments/testing.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'

/** Money-moving POSTs outside checkout answer a repeated Idempotency-Key with the first answer. */
describe('Idempotency-Key on refunds and points', () => {
  const { t } = useCommerceApp()

  const post = async <T>(url: string, token: string, payload: Record<string, unknown>, key?: string) => {
    const res = await t().app.inject({
      method: 'POST',
      url,
      headers: headersOf(token, key ? { 'idempotency-key': key } : {}),
      payload,
    })
    return { res, body: res.json<ApiBody<T>>() }
  }

  it('a member asking twice with one key gets the first answer; an operator approving twice sends one refund', async () => {
    const admin = await makeMember(t().database.db, 'admin')
    const { m, orderNo } = await paidCourse(t)
    const first = await post<{ refund_no: string }>(
      '/api/refunds',
      m.token,
      { order_no: orderNo, reason: '不想学了' },
      'refund-ask-0001',
    )
    const again = await post<{ refund_no: string }>(
      '/api/refunds',
      m.token,
      { order_no: orderNo, reason: '不想学了' },
      'refund-ask-0001',
    )
    expect(again.res.headers['idempotent-replayed']).toBe('true')
    expect(again.body).toEqual(first.body)

    const refundNo = first.body.data.refund_no
    const approved = await post<{ state: string }>(
      `/api/admin/refunds/${refundNo}/approve`,
      admin.token,
      { note: '同意' },
      'approve-0001',
    )
    const replay = await post<{ state: string }>(
      `/api/admin/refunds/${refundNo}/approve`,
      admin.token,
      { note: '同意' },
      'approve-0001',
    )
    expect(approved.body.code).toBe(200)
    expect(replay.res.headers['idempotent-replayed']).toBe('true')
    expect(replay.body).toEqual(approved.body)
    await settleSimulators(t().app)
    expect(
      t().app.paymentSimulators!.wechat.requests.filter(
        (r) => r.method === 'POST' && r.path === '/v3/refund/domestic/refunds',
      ),
    ).toHaveLength(1)
    await expectLedgerConsistent(t().database.db)
  })

  it('the same key on another refund is another request, refused with 487', async () => {
    const admin = await makeMember(t().database.db, 'admin')
    const a = await paidCourse(t)
    const b = await paidCourse(t)
    const ra = (await post<{ refund_no: string }>('/api/refunds', a.m.token, { order_no: a.orderNo, reason: '买错了' }))
      .body.data.refund_no
    const rb = (await post<{ refund_no: string }>('/api/refunds', b.m.token, { order_no: b.orderNo, reason: '买错了' }))
      .body.data.refund_no
    expect(
      (await post(`/api/admin/refunds/${ra}/reject`, admin.token, { note: '已观看较多' }, 'decide-0002')).body.code,
    ).toBe(200)
    expect(
      (await post(`/api/admin/refunds/${rb}/reject`, admin.token, { note: '已观看较多' }, 'decide-0002')).body.code,
    ).toBe(487)
  })

  it('a points adjustment sent twice with one key adds the points once', async () => {
    const admin = await makeMember(t().database.db, 'admin')
    const m = await makeMember(t().database.db)
    for (let i = 0; i < 3; i++) {
      const r = await post<{ balance: number }>(
        '/api/admin/points/adjust',
        admin.token,
        { member_id: m.id, delta: 500, note: '活动奖励' },
        'points-grant-0003',
      )
      expect(r.body).toMatchObject({ code: 200, data: { balance: 500 } })
    }
    await expectLedgerConsistent(t().database.db)
  })
})
