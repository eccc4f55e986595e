import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import {
  answerCashier,
  apiData,
  approveRefund,
  buyWithH5,
  completeRefundAtProvider,
  courseByTitle,
  expectPaid,
  openDevice,
  orderState,
  payOnCheckout,
  requestRefund,
  signIn,
  signInOperator,
} from './support/commerce.ts'

/**
 * The member's order lists (issue 4): orders that ended in every state — pending, paid, closed, refunding,
 * refunded, partially refunded — each with its Chinese label on /order, /order2 (VIP) and /order3 (amounts),
 * and each row opening its detail.
 */

interface Row {
  list: '/order' | '/order2' | '/order3'
  orderNo: string
  title: string
  label: string
}

/** Every row of the list is there with its title and state label, and opens a detail in the same state. */
async function checkList(page: Page, list: Row['list'], rows: Row[], screenshot: string) {
  await page.goto(list)
  const mine = rows.filter((r) => r.list === list)
  const links = page.getByRole('list').getByRole('link')
  await expect.poll(() => links.count(), { timeout: 15_000 }).toBe(mine.length)
  for (const row of mine) {
    const text = await page.locator(`a[href="${list}/${row.orderNo}"]`).innerText()
    expect(text, row.orderNo).toContain(row.title)
    expect(text, row.orderNo).toContain(row.label)
  }
  await shot(page, screenshot)
  for (const row of mine) {
    await page.locator(`a[href="${list}/${row.orderNo}"]`).click()
    await page.waitForURL((url) => url.pathname === `${list}/${row.orderNo}`)
    const status = page.getByRole('region', { name: '订单状态' })
    await expect.poll(() => status.isVisible(), { timeout: 10_000 }).toBe(true)
    expect(await status.innerText(), row.orderNo).toMatch(new RegExp(`订单状态\\s*${row.label}[\\s\\S]*${row.orderNo}`))
    await page.goBack()
    await page.waitForURL((url) => url.pathname === list)
  }
}

describe('the order lists', () => {
  it(
    'show pending, paid, closed, refunding, refunded and partially refunded orders, each opening its detail',
    { timeout: 150_000 },
    async () => {
      const [token, operator] = await Promise.all([signIn(), signInOperator()])
      const [paidCourse, refundedCourse, partCourse, refundingCourse, switchedCourse] = await Promise.all([
        courseByTitle('Illustrator 矢量图形设计'),
        courseByTitle('Photoshop 零基础入门'),
        courseByTitle('C4D 三维电商场景入门'),
        courseByTitle('PPT 设计美化：从丑到高级'),
        courseByTitle('Word 长文档排版：论文与标书'),
      ])
      const { context, page } = await openDevice('phone', token)
      const rows: Row[] = []

      // Paid, and paid then refunded in full or in part (the operator approves, WeChat Pay completes).
      const paid = await buyWithH5(page, token, '/pay/course', { course_id: paidCourse.id })
      rows.push({ list: '/order', orderNo: paid, title: paidCourse.title, label: '已支付' })
      const refunded = await buyWithH5(page, token, '/pay/course', { course_id: refundedCourse.id })
      const part = await buyWithH5(page, token, '/pay/course', { course_id: partCourse.id })
      const refunding = await buyWithH5(page, token, '/pay/course', { course_id: refundingCourse.id })
      await requestRefund(token, refunded)
      await requestRefund(token, part, '只想退一部分')
      await completeRefundAtProvider(page, await approveRefund(operator, refunded))
      await completeRefundAtProvider(page, await approveRefund(operator, part, 5000))
      await expect.poll(async () => (await orderState(token, refunded)).state, { timeout: 15_000 }).toBe('refunded')
      await expect
        .poll(async () => (await orderState(token, part)).state, { timeout: 15_000 })
        .toBe('partially_refunded')
      expect((await orderState(token, part)).refunded_fen).toBe(5000)
      rows.push({ list: '/order', orderNo: refunded, title: refundedCourse.title, label: '已退款' })
      rows.push({ list: '/order', orderNo: part, title: partCourse.title, label: '部分退款' })

      // Cancelled at the WeChat Pay cashier: the order stays pending. Choosing Alipay instead closes it (one open
      // order per course) and opens a new one, left unpaid at Alipay's cashier.
      await page.goto(`/course/coursePurchase?course_id=${switchedCourse.id}`)
      await payOnCheckout(page, /微信支付/)
      await answerCashier(page, '取消')
      // WeChat sends the phone back the same way paid or not: /payRedirect waits, then also offers to pay again.
      await page.waitForURL(/\/payRedirect\?order_no=/)
      const cancelled = new URL(page.url()).searchParams.get('order_no')!
      expect((await orderState(token, cancelled)).state).toBe('pending')
      const again = page.getByRole('link', { name: '重新支付' })
      await expect.poll(() => again.isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await page.getByText('正在确认支付结果').isVisible()).toBe(true)
      await shot(page, 'commerce-orders-pay-redirect-waiting')
      await again.click()
      await page.waitForURL(new RegExp(`/course/coursePurchase\\?course_id=${switchedCourse.id}$`))
      await payOnCheckout(page, /支付宝/)
      await page.waitForURL(/\/__sim\/alipay\//)
      await answerCashier(page, '取消')
      await page.waitForURL(new RegExp(`/course/${switchedCourse.id}\\.html$`))
      expect((await orderState(token, cancelled)).state).toBe('closed')
      const pending = (
        await apiData<{ list: { order_no: string; state: string }[] }>('/orders?kind=course&limit=20', token)
      ).list.find((o) => o.state === 'pending')!
      expect(pending.order_no).not.toBe(cancelled)
      rows.push({ list: '/order', orderNo: cancelled, title: switchedCourse.title, label: '已关闭' })
      rows.push({ list: '/order', orderNo: pending.order_no, title: switchedCourse.title, label: '待支付' })

      // A VIP plan paid at the checkout, another left at the cashier; an amount from a staff link paid.
      await page.goto('/vipBuy')
      await payOnCheckout(page)
      await answerCashier(page)
      const vipPaid = await expectPaid(page)
      rows.push({ list: '/order2', orderNo: vipPaid, title: 'VIP 会员 · 月卡', label: '已支付' })
      const plans = await apiData<{ plans: { id: number; name: string }[] }>('/v2/vip', token)
      const quarter = plans.plans.find((p) => p.name === '季卡')!
      await page.goto(`/vip/d/${quarter.id}`)
      await payOnCheckout(page)
      await answerCashier(page, '取消')
      await page.waitForURL(/\/payRedirect\?order_no=/)
      rows.push({
        list: '/order2',
        orderNo: new URL(page.url()).searchParams.get('order_no')!,
        title: 'VIP 会员 · 季卡',
        label: '待支付',
      })

      await page.goto(`/PayAmount?amount=${encodeURIComponent('99.5')}&title=${encodeURIComponent('线下课定金')}`)
      await expect.poll(() => page.getByText('¥99.5').first().isVisible(), { timeout: 10_000 }).toBe(true)
      await shot(page, 'commerce-orders-pay-amount')
      await payOnCheckout(page)
      await answerCashier(page)
      const amountPaid = await expectPaid(page)
      expect(await orderState(token, amountPaid)).toMatchObject({ kind: 'amount', amount_fen: 9950 })
      rows.push({ list: '/order3', orderNo: amountPaid, title: '线下课定金', label: '已支付' })

      // Refunding: approved, WeChat Pay still working on it (the demo's refunds take a while).
      await requestRefund(token, refunding)
      await approveRefund(operator, refunding)
      expect((await orderState(token, refunding)).state).toBe('refunding')
      rows.push({ list: '/order', orderNo: refunding, title: refundingCourse.title, label: '退款中' })

      await checkList(page, '/order', rows, 'commerce-orders-course')
      await checkList(page, '/order2', rows, 'commerce-orders-vip')
      await checkList(page, '/order3', rows, 'commerce-orders-amount')
      expect(rows.map((r) => r.label).sort()).toEqual(
        ['已支付', '已支付', '已支付', '已关闭', '已退款', '待支付', '待支付', '部分退款', '退款中'].sort(),
      )

      // The partly refunded order says how much came back.
      await page.goto(`/order/${part}`)
      await expect.poll(() => page.getByRole('region', { name: '金额' }).isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await page.getByRole('region', { name: '金额' }).innerText()).toMatch(/已退款\s*¥50/)
      await shot(page, 'commerce-orders-partial-detail')
      await context.close()
    },
  )
})
