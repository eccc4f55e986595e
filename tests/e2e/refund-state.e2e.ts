import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import {
  apiData,
  buyWithH5,
  call,
  courseByTitle,
  openDevice,
  requestRefund,
  signIn,
  signInOperator,
  type DeviceKind,
} from './support/commerce.ts'

/**
 * An order shows its refund's state in the list and the detail (issue 10 §1), at 390×844, phone and WeChat: a
 * request under review reads 退款审核中, a refused one keeps 已支付 with the operator's reason.
 */
describe.each<DeviceKind>(['phone', 'wechat'])('refund state on orders (%s)', (kind) => {
  it('退款审核中 while asked; the reason when refused', { timeout: 90_000 }, async () => {
    const token = await signIn()
    const operator = await signInOperator()
    const course = await courseByTitle('Excel 函数与公式实战')
    const { context, page } = await openDevice(kind, token)
    const orderNo = await buyWithH5(page, token, '/pay/course', { course_id: course.id })
    await requestRefund(token, orderNo, '买错了课程')

    await page.goto('/order')
    const row = page.getByRole('link', { name: new RegExp(course.title) })
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true)
    await expect.poll(() => row.innerText(), { timeout: 10_000 }).toContain('退款审核中')
    await shot(page, `refund-state-requested-${kind}`)

    const requested = await apiData<{ list: { refund_no: string; order_no: string }[] }>(
      '/admin/refunds?state=requested&page_size=100',
      operator,
    )
    const refundNo = requested.list.find((r) => r.order_no === orderNo)!.refund_no
    const rejected = await call('POST', `/admin/refunds/${refundNo}/reject`, {
      token: operator,
      body: { note: '课程已学习超过 20%' },
    })
    expect(rejected.code).toBe(200)

    await page.goto('/order')
    await expect.poll(() => row.innerText(), { timeout: 15_000 }).toContain('退款未通过：课程已学习超过 20%')
    expect(await row.innerText()).toContain('已支付')
    await page.goto(`/order/${orderNo}`)
    await expect
      .poll(() => page.getByText('退款未通过：课程已学习超过 20%').isVisible(), { timeout: 15_000 })
      .toBe(true)
    await shot(page, `refund-state-rejected-${kind}`)
    await context.close()
  })
})
