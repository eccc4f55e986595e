import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { members } from '#server/db/schema/members.ts'
import { orders } from '#server/db/schema/orders.ts'
import { huabeiOf } from '#server/integrations/payments/alipay-simulator/trade.ts'
import { verifyRequestParams } from '#server/integrations/payments/alipay-crypto.ts'
import { TestAlipay } from '#server/integrations/payments/test-keys/test-keys.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import { settleSimulators, useCommerceApp } from '#server/modules/payments/testing.ts'
import { PlanBody } from '#shared/api/tuition.ts'
import { api, makePlanAndTemplate, makeProgramme, offer } from './testing.ts'

// Alipay Huabei instalments (花呗分期) for tuition (issue 15 §3): where the plan allows, the WAP pay request carries
// extend_params.hb_fq_num and hb_fq_seller_percent, signed; the simulator checks and shows them.

describe('tuition in Alipay Huabei instalments', () => {
  const { t } = useCommerceApp()
  const call = api(() => t().app)

  async function enrolment(plan: object) {
    const db = t().database.db
    const { system, staff } = await makeProgramme(db)
    const { planId } = await makePlanAndTemplate(call, staff.token, system, { contract_required: false, ...plan })
    const m = await makeMember(db)
    const [row] = await db.select({ phone: members.phone }).from(members).where(eq(members.id, m.id))
    const o = await offer(call, staff.token, row!.phone!, planId, null)
    return { m, enrolmentId: o.enrolment_id }
  }
  const pay = (token: string, body: object) =>
    call<{ order_no: string; redirect_url: string | null }>('POST', '/api/pay/tuition', token, body)
  /** The signed request's parameters, and its biz_content. */
  function request(redirect: string) {
    const params = Object.fromEntries(new URL(redirect).searchParams)
    return { params, biz: JSON.parse(params.biz_content!) as Record<string, unknown> }
  }
  const cashier = async (redirect: string) => {
    const url = new URL(redirect)
    return (await t().app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).body
  }

  it('the signed alipay.trade.wap.pay request carries hb_fq_num and hb_fq_seller_percent; the cashier shows them', async () => {
    const e = await enrolment({
      kind: 'full',
      huabei_allowed: true,
      huabei_periods: [3, 6],
      huabei_fee_payer: 'seller',
    })
    const r = await pay(e.m.token, { enrolment_id: e.enrolmentId, pay_method: 'alipay_wap', huabei_periods: 6 })
    expect(r.code, r.msg).toBe(200)
    const { params, biz } = request(r.data.redirect_url!)
    expect(params.method).toBe('alipay.trade.wap.pay')
    expect(biz.extend_params).toEqual({ hb_fq_num: '6', hb_fq_seller_percent: '100' })
    // Signed with the merchant key over the whole request, extend_params included.
    expect(verifyRequestParams(params, TestAlipay.appPublicKey)).toBe(true)
    expect(
      verifyRequestParams(
        { ...params, biz_content: params.biz_content!.replace('"6"', '"12"') },
        TestAlipay.appPublicKey,
      ),
    ).toBe(false)
    const page = await cashier(r.data.redirect_url!)
    expect(page).toContain('花呗分期 6 期 · 手续费由商家承担')
    expect(t().app.paymentSimulators!.alipay.trades.get(r.data.order_no)!.huabei).toEqual({
      periods: 6,
      sellerPercent: 100,
    })
    t().app.paymentSimulators!.alipay.pay(r.data.order_no)
    await settleSimulators(t().app)
    const [order] = await t().database.db.select().from(orders).where(eq(orders.orderNo, r.data.order_no))
    expect(order).toMatchObject({ state: 'paid', kind: 'tuition', payMethod: 'alipay_wap' })
  })

  it('the buyer bearing the fee is 0; plain Alipay carries no extend_params; a changed choice is a new order', async () => {
    const e = await enrolment({
      kind: 'full',
      huabei_allowed: true,
      huabei_periods: [3, 12],
      huabei_fee_payer: 'buyer',
    })
    const plain = await pay(e.m.token, { enrolment_id: e.enrolmentId, pay_method: 'alipay_wap' })
    expect(request(plain.data.redirect_url!).biz.extend_params).toBeUndefined()
    expect(await cashier(plain.data.redirect_url!)).not.toContain('花呗分期')
    const hb = await pay(e.m.token, { enrolment_id: e.enrolmentId, pay_method: 'alipay_wap', huabei_periods: 12 })
    expect(hb.code, hb.msg).toBe(200)
    // Alipay keeps the first periods of an out_trade_no: a new choice is a new order; the same one reuses it.
    expect(hb.data.order_no).not.toBe(plain.data.order_no)
    expect(request(hb.data.redirect_url!).biz.extend_params).toEqual({ hb_fq_num: '12', hb_fq_seller_percent: '0' })
    const again = await pay(e.m.token, { enrolment_id: e.enrolmentId, pay_method: 'alipay_wap', huabei_periods: 12 })
    expect(again.data.order_no).toBe(hb.data.order_no)
    // "继续支付" on the order hands it to Alipay with the same periods.
    const resumed = await call<{ redirect_url: string }>('POST', '/api/orders/pay', e.m.token, {
      order_no: hb.data.order_no,
    })
    expect(resumed.code, resumed.msg).toBe(200)
    expect(request(resumed.data.redirect_url).biz.extend_params).toEqual({ hb_fq_num: '12', hb_fq_seller_percent: '0' })
    expect(await cashier(hb.data.redirect_url!)).toContain('花呗分期 12 期 · 手续费由买家承担')
  })

  it('a plan without Huabei, a period it does not offer, or WeChat Pay: refused in Chinese, no order', async () => {
    const none = await enrolment({ kind: 'full' })
    const refused = await pay(none.m.token, {
      enrolment_id: none.enrolmentId,
      pay_method: 'alipay_wap',
      huabei_periods: 3,
    })
    expect(refused).toMatchObject({ code: 400, msg: '该学费方案不支持花呗分期' })
    const some = await enrolment({ kind: 'full', huabei_allowed: true, huabei_periods: [3], huabei_fee_payer: 'buyer' })
    const period = await pay(some.m.token, {
      enrolment_id: some.enrolmentId,
      pay_method: 'alipay_wap',
      huabei_periods: 6,
    })
    expect(period.code).toBe(400)
    expect(period.msg).toContain('不支持花呗分期 6 期')
    const wechat = await pay(some.m.token, {
      enrolment_id: some.enrolmentId,
      pay_method: 'wechat_h5',
      huabei_periods: 3,
    })
    expect(wechat).toMatchObject({ code: 400, msg: '花呗分期仅支持支付宝支付' })
    const odd = await pay(some.m.token, { enrolment_id: some.enrolmentId, pay_method: 'alipay_wap', huabei_periods: 4 })
    expect(odd).toMatchObject({ code: 400, msg: '花呗分期格式不正确' })
    for (const m of [none.m, some.m])
      expect(await t().database.db.select().from(orders).where(eq(orders.memberId, m.id))).toHaveLength(0)
    // /PayAmount learns what the plan offers.
    const listed = await call<{ list: { huabei: unknown }[] }>('GET', '/api/tuition', some.m.token)
    expect(listed.data.list[0]!.huabei).toEqual({ periods: [3], fee_payer: 'buyer' })
    expect(
      (await call<{ list: { huabei: unknown }[] }>('GET', '/api/tuition', none.m.token)).data.list[0]!.huabei,
    ).toBeNull()
  })

  it('the simulated gateway checks the pair as Alipay does', () => {
    expect(huabeiOf(undefined)).toEqual({ huabei: null })
    expect(huabeiOf({ hb_fq_num: '3', hb_fq_seller_percent: '0' })).toEqual({
      huabei: { periods: 3, sellerPercent: 0 },
    })
    expect(huabeiOf({ hb_fq_num: '24', hb_fq_seller_percent: '0' }).error).toContain('3、6、12')
    expect(huabeiOf({ hb_fq_num: '6', hb_fq_seller_percent: '50' }).error).toContain('100、0')
    expect(huabeiOf({ hb_fq_num: '6' }).error).toContain('100、0')
  })
})

describe('a plan that allows Huabei (PlanBody)', () => {
  const plan = { course_id: 1, title: '全款', kind: 'full', total_fen: 980_000 } as const
  const refusal = (body: Record<string, unknown>) => PlanBody.safeParse({ ...plan, ...body }).error?.issues[0]?.message

  it('names at least one period, each once', () => {
    expect(refusal({ huabei_allowed: true, huabei_periods: [] })).toBe('允许花呗分期时请至少选择一种期数')
    expect(refusal({ huabei_allowed: true, huabei_periods: [6, 6] })).toBe('花呗分期的期数不能重复')
    expect(refusal({ huabei_allowed: true, huabei_periods: [3, 12] })).toBeUndefined()
    expect(refusal({ huabei_allowed: false })).toBeUndefined()
  })
})
