import { describe, expect, inject, it } from 'vitest'
import { shot } from './support/browser.ts'
import { call, newPhone, openDevice, signIn } from './support/commerce.ts'

/**
 * The course page says why the member has the course, and why no longer (issue 14 §2): a Douyin group-buy voucher
 * exchanged opens it ("抖音团购券兑换"); Douyin's refund takes it back, and the page says so with Douyin's reason.
 */
async function simulator(action: 'buy' | 'refund', form: Record<string, string>) {
  const res = await fetch(`${inject('baseUrl')}/__sim/douyin/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  })
  return res.text()
}

describe('the course page: why do I have access, why no longer', () => {
  it('names the Douyin exchange, then the Douyin refund that took the course back', { timeout: 90_000 }, async () => {
    const token = await signIn(newPhone())
    const bought = await simulator('buy', { sku: 'DY-SKU-1002', kind: 'voucher' })
    const code = /券码 (\d{12})/.exec(bought)![1]!
    const exchanged = await call<{ order_id: string; courses: { id: number }[] }>('POST', '/tiktok/order2course', {
      token,
      body: { order_no: code },
    })
    expect(exchanged.code).toBe(200)
    const courseId = exchanged.data.courses[0]!.id

    const { context, page } = await openDevice('phone', token)
    await page.goto(`/course/${courseId}.html`)
    const why = page.getByTestId('access-why')
    await expect.poll(() => why.isVisible(), { timeout: 15_000 }).toBe(true)
    expect(await why.getByRole('heading').textContent()).toBe('你可以学习本课程')
    expect(await why.textContent()).toContain(`抖音团购券兑换（订单 ${exchanged.data.order_id}）`)
    await why.scrollIntoViewIfNeeded()
    await shot(page, 'course-access-why-granted')

    await simulator('refund', { order_id: exchanged.data.order_id })
    await expect
      .poll(
        async () => {
          await page.reload()
          await why.waitFor({ timeout: 10_000 }).catch(() => undefined)
          return why.textContent()
        },
        { timeout: 30_000 },
      )
      .toContain('已收回：抖音团购券兑换')
    expect(await why.getByRole('heading').textContent()).toBe('你已不能学习本课程')
    expect(await why.textContent()).toContain('抖音团购券已退款')
    await why.scrollIntoViewIfNeeded()
    await shot(page, 'course-access-why-revoked')

    const wechat = await openDevice('wechat', token)
    await wechat.page.goto(`/course/${courseId}.html`)
    await expect
      .poll(() => wechat.page.getByTestId('access-why').textContent(), { timeout: 15_000 })
      .toContain('已收回')
    await shot(wechat.page, 'course-access-why-wechat')
    await wechat.context.close()
    await context.close()
  })
})
