import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import {
  answerCashier,
  approveRefund,
  completeRefundAtProvider,
  courseByTitle,
  expectPaid,
  expectPreviewOnly,
  openDevice,
  orderState,
  payOnCheckout,
  playableUntil,
  previewLesson,
  signIn,
  signInOperator,
} from './support/commerce.ts'

/**
 * A refund from start to end (issue 4): the member asks on /refund/{order_no} with a reason, an operator approves
 * through /api/admin/, WeChat Pay's refund notification completes it, and the course is a preview again.
 */

describe('refunding a course', () => {
  it(
    'the member asks with a reason, the operator approves, the notification completes it and access is gone',
    { timeout: 90_000 },
    async () => {
      const [token, operator] = await Promise.all([signIn(), signInOperator()])
      const course = await courseByTitle('AutoCAD 室内制图从入门到精通')
      const lesson = previewLesson(course)
      const { context, page } = await openDevice('phone', token)

      await page.goto(`/course/coursePurchase?course_id=${course.id}`)
      await payOnCheckout(page, /微信支付/)
      await answerCashier(page)
      const orderNo = await expectPaid(page)
      expect(await playableUntil(token, lesson.id)).toBeNull()

      // The order's detail offers a refund; the refund screen explains the rules.
      await page.goto(`/order/${orderNo}`)
      await page.getByRole('link', { name: '申请退款' }).click()
      await page.waitForURL(new RegExp(`/refund/${orderNo}$`))
      await expect.poll(() => page.getByText('退款规则').isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await page.getByRole('region', { name: '退款规则' }).innerText()).toMatch(
        /支付后 7 天内可申请退款；课程订单需观看不足 20%/,
      )
      expect(await page.getByRole('heading', { name: /退款金额/ }).innerText()).toContain(`¥${course.price_fen / 100}`)

      // A reason is required; a common one fills it in, the member adds a word.
      await page.getByRole('button', { name: '提交退款申请' }).click()
      await expect.poll(() => page.locator('.adm-toast-main', { hasText: '请填写退款原因' }).isVisible()).toBe(true)
      await page.getByRole('button', { name: '买错了课程' }).click()
      await page.getByLabel('退款原因').fill('买错了课程，想买的是 SketchUp')
      await shot(page, 'commerce-refund-form')
      await page.getByRole('button', { name: '提交退款申请' }).click()
      const state = page.getByTestId('refund-state')
      await expect.poll(() => state.isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await state.innerText()).toBe('已提交，等待审核')
      expect(await page.getByText('原因：买错了课程，想买的是 SketchUp').isVisible()).toBe(true)
      // One request at a time: the form is gone.
      expect(await page.getByRole('button', { name: '提交退款申请' }).count()).toBe(0)
      await shot(page, 'commerce-refund-requested')
      expect((await orderState(token, orderNo)).state).toBe('paid')

      // The operator approves through the admin API: the order is refunding until WeChat Pay says it is done.
      const refundNo = await approveRefund(operator, orderNo)
      expect((await orderState(token, orderNo)).state).toBe('refunding')
      await page.reload()
      await expect.poll(() => state.innerText(), { timeout: 10_000 }).toBe('已同意，退款处理中')
      expect(await page.getByText('审核说明：同意退款').isVisible()).toBe(true)
      await page.goto(`/order/${orderNo}`)
      const status = page.getByRole('region', { name: '订单状态' })
      await expect.poll(() => status.isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await status.innerText()).toContain('退款中')
      expect(await page.getByRole('link', { name: '查看退款进度' }).isVisible()).toBe(true)
      await shot(page, 'commerce-refund-refunding')

      // WeChat Pay completes the refund and notifies the server.
      await completeRefundAtProvider(page, refundNo)
      await expect.poll(async () => (await orderState(token, orderNo)).state, { timeout: 15_000 }).toBe('refunded')
      await page.goto(`/order/${orderNo}`)
      await expect.poll(() => status.isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await status.innerText()).toContain('已退款')
      const history = await page.getByRole('region', { name: '订单记录' }).innerText()
      expect(history).toMatch(/申请退款[\s\S]*退款已同意[\s\S]*退款成功/)
      expect(await page.getByRole('region', { name: '金额' }).innerText()).toMatch(
        new RegExp(`已退款\\s*¥${course.price_fen / 100}`),
      )
      expect(await page.getByRole('link', { name: '申请退款' }).count()).toBe(0)
      await shot(page, 'commerce-refund-refunded')
      await page.getByRole('link', { name: '退款详情' }).click()
      await page.waitForURL(new RegExp(`/refund/${orderNo}$`))
      await expect.poll(() => state.innerText(), { timeout: 10_000 }).toBe('退款成功')

      // The course is a preview again: the server stops at the preview, so does the player, and it is for sale.
      expect(await playableUntil(token, lesson.id)).toBe(lesson.free_seconds)
      await expectPreviewOnly(page, lesson)
      await shot(page, 'commerce-refund-preview-again')
      await page.goto(`/course/${course.id}.html`)
      await expect
        .poll(() => page.getByRole('link', { name: /^立即购买 ¥/ }).isVisible(), { timeout: 10_000 })
        .toBe(true)
      await context.close()
    },
  )
})
