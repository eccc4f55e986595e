import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import {
  answerCashier,
  courseByTitle,
  expectPaid,
  expectPlaysPastPreview,
  openDevice,
  orderState,
  payOnCheckout,
  playableUntil,
  previewLesson,
  signIn,
} from './support/commerce.ts'

/**
 * Alipay WAP in a phone browser outside WeChat (issue 4): the checkout sends the phone to Alipay's cashier (the
 * simulator's), which returns it to /payRedirect with the signed result; the notification pays the order.
 */

describe('paying with Alipay on a phone', () => {
  it(
    'chooses 支付宝, pays at the Alipay cashier, comes back through /payRedirect, and the course plays',
    { timeout: 90_000 },
    async () => {
      const token = await signIn()
      const course = await courseByTitle('Excel 函数与公式实战')
      const lesson = previewLesson(course)
      const { context, page } = await openDevice('phone', token)

      await page.goto(`/course/coursePurchase?course_id=${course.id}`)
      await expect.poll(() => page.getByRole('radio', { name: /支付宝/ }).isVisible(), { timeout: 15_000 }).toBe(true)
      await page.getByRole('radio', { name: /支付宝/ }).check()
      await shot(page, 'commerce-alipay-checkout')

      const back = page.waitForURL(/\/payRedirect\?order_no=.*&sign=/, { timeout: 30_000 })
      await payOnCheckout(page)
      await page.waitForURL(/\/__sim\/alipay\/gateway\.do\?/, { timeout: 15_000 })
      expect(await page.getByText('支付宝').first().isVisible()).toBe(true)
      expect(await page.getByText((course.price_fen / 100).toFixed(2)).isVisible()).toBe(true)
      await shot(page, 'commerce-alipay-cashier')
      await answerCashier(page)

      // Alipay's return carries its signed synchronous result; the page still waits for the notification.
      await back
      const orderNo = await expectPaid(page)
      expect(await page.getByRole('region', { name: '订单信息' }).innerText()).toMatch(/支付方式\s*支付宝/)
      await shot(page, 'commerce-alipay-result')
      expect(await orderState(token, orderNo)).toMatchObject({
        state: 'paid',
        pay_method: 'alipay_wap',
        amount_fen: course.price_fen,
      })

      expect(await playableUntil(token, lesson.id)).toBeNull()
      await expectPlaysPastPreview(page, lesson)
      await context.close()
    },
  )
})
