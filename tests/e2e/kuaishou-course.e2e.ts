import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import { call, courseByTitle, newPhone, openDevice, signIn } from './support/commerce.ts'

/**
 * /course/ks/{id} (issue 14 §2): the landing page of a course sold in the Kuaishou shop (the demo maps KS-SKU-1001
 * to Photoshop): the course, its comments newest first (GET /ksxd/course/comments), and the way to /data/ks with the
 * course in context, where the Kuaishou order is exchanged. A course not on sale on Kuaishou is a 404.
 */
describe('the Kuaishou course landing page', () => {
  it('shows the course and its newest comments, and leads to the exchange', { timeout: 120_000 }, async () => {
    const course = await courseByTitle('Photoshop 零基础入门')
    const phone = newPhone()
    const token = await signIn(phone)
    const said = `快手买的，来这里学 ${Date.now() % 100000}`
    expect((await call('POST', '/comment', { token, body: { course_id: course.id, content: said } })).code).toBe(200)

    for (const kind of ['wechat', 'phone'] as const) {
      const { context, page } = await openDevice(kind, token)
      await page.goto(`/course/ks/${course.id}`)
      expect(await page.getByRole('heading', { level: 1, name: course.title }).isVisible()).toBe(true)
      expect(await page.getByText('快手小店在售').isVisible()).toBe(true)
      expect(
        await page
          .getByText(/\d+ 节课/)
          .first()
          .isVisible(),
      ).toBe(true)
      expect(await page.getByRole('button', { name: /客服/ }).count()).toBe(1)
      await shot(page, `kuaishou-course${kind === 'wechat' ? '-wechat' : ''}`)
      await page.getByTestId('course-comments').scrollIntoViewIfNeeded()
      const first = page.getByTestId('course-comments').getByTestId('comment').first()
      await expect.poll(() => first.textContent(), { timeout: 15_000 }).toContain(said)
      await shot(page, `kuaishou-course-comments${kind === 'wechat' ? '-wechat' : ''}`)
      if (kind === 'wechat') await context.close()
      else {
        // Buy on the Kuaishou simulator, then exchange from the landing page's button.
        await page.goto('/__sim/kuaishou/')
        await page.getByLabel('商品').selectOption('KS-SKU-1001')
        await page.getByLabel('下单手机号').fill(phone)
        await page.getByRole('button', { name: '立即购买' }).click()
        const orderId = /订单号 (\d{16})/.exec((await page.getByRole('status').textContent()) ?? '')![1]!

        await page.goto(`/course/ks/${course.id}`)
        await page.getByTestId('ks-exchange').click()
        await page.waitForURL(new RegExp(`/data/ks\\?course_id=${course.id}$`))
        const inContext = page.getByTestId('exchange-course')
        await expect.poll(() => inContext.textContent(), { timeout: 15_000 }).toContain(course.title)
        await page.getByLabel('订单号', { exact: true }).fill(orderId)
        await shot(page, 'kuaishou-course-exchange')
        await page.getByRole('button', { name: '兑换课程' }).click()
        const result = page.getByTestId('exchange-result')
        await expect.poll(() => result.isVisible(), { timeout: 15_000 }).toBe(true)
        expect(await result.textContent()).toContain(course.title)
        await shot(page, 'kuaishou-course-exchanged')
        await context.close()
      }
    }
  })

  it('answers 404 for a course not on sale on Kuaishou', async () => {
    const other = await courseByTitle('职场 Office 效率直播课')
    const { context, page } = await openDevice('phone')
    const res = await page.goto(`/course/ks/${other.id}`)
    expect(res?.status()).toBe(404)
    expect(await page.getByRole('heading', { name: '页面不存在' }).isVisible()).toBe(true)
    await shot(page, 'kuaishou-course-404')
    await context.close()
  })
})
