import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import { courseByTitle, newPhone, openDevice, playableUntil, signIn } from './support/commerce.ts'

/**
 * Exchanging a Kuaishou shop order on a phone (issue 14 §2): a person buys on the Kuaishou simulator's page with
 * their phone, finds the order waiting on /data/ks (Kuaishou's order push), exchanges it with 全部兑换, plays the
 * course; a refund on Kuaishou (its encrypted push) takes it back.
 */
describe('exchanging a Kuaishou shop order on a phone', () => {
  it(
    'buys on the Kuaishou simulator, exchanges all on /data/ks, plays; a refund takes it back',
    { timeout: 120_000 },
    async () => {
      const phone = newPhone()
      const token = await signIn(phone)
      const { context, page } = await openDevice('phone', token)

      await page.goto('/__sim/kuaishou/')
      await page.getByLabel('商品').selectOption('KS-SKU-1001')
      await page.getByLabel('下单手机号').fill(phone)
      await page.getByRole('button', { name: '立即购买' }).click()
      const notice = (await page.getByRole('status').textContent()) ?? ''
      const orderId = /订单号 (\d{16})/.exec(notice)![1]!
      await shot(page, 'exchange-kuaishou-simulator')

      await page.goto('/data/ks')
      expect(await page.getByRole('img', { name: /订单编号/ }).isVisible()).toBe(true)
      const waiting = page.getByText(`订单号 ${orderId}`)
      await expect.poll(() => waiting.isVisible(), { timeout: 15_000 }).toBe(true)
      expect(await page.getByRole('button', { name: /客服/ }).count()).toBe(0)
      await shot(page, 'exchange-kuaishou-waiting')
      await page.getByRole('button', { name: '全部兑换' }).click()
      const result = page.getByTestId('exchange-result')
      await expect.poll(() => result.isVisible(), { timeout: 15_000 }).toBe(true)
      expect(await result.textContent()).toContain('Photoshop 零基础入门')
      await expect.poll(() => page.getByText('没有待兑换的订单').isVisible(), { timeout: 10_000 }).toBe(true)
      await shot(page, 'exchange-kuaishou-result')

      await result.getByRole('link', { name: '开始学习' }).first().click()
      await page.waitForURL(/\/course\/\d+\.html/)
      const course = await courseByTitle('Photoshop 零基础入门')
      const paid = course.chapters.flatMap((c) => c.videos).find((v) => !v.is_free)!
      expect(await playableUntil(token, paid.id)).toBeNull()

      await page.goto('/__sim/kuaishou/')
      await page.getByRole('button', { name: '退款' }).first().click()
      await expect.poll(() => playableUntil(token, paid.id), { timeout: 10_000 }).not.toBeNull()
      await shot(page, 'exchange-kuaishou-refunded')
      await context.close()
    },
  )

  it(
    'shows the Xiaohongshu and WeChat Shop pages with their own guide, picture and input',
    { timeout: 60_000 },
    async () => {
      const { context, page } = await openDevice('phone', await signIn())
      for (const [path, name, picture] of [
        ['/data/xhs', '小红书订单兑换课程', /小红书“全部订单”/],
        ['/data/wechatShop', '微信小店订单兑换课程', /小店订单详情/],
      ] as const) {
        await page.goto(path)
        await expect.poll(() => page.getByLabel('订单号', { exact: true }).isVisible(), { timeout: 10_000 }).toBe(true)
        expect(await page.getByRole('heading', { name }).isVisible()).toBe(true)
        expect(await page.getByRole('img', { name: picture }).isVisible()).toBe(true)
        await expect.poll(() => page.getByText('没有待兑换的订单').isVisible(), { timeout: 10_000 }).toBe(true)
        await shot(page, `exchange-${path.slice(6)}`)
      }
      await context.close()
    },
  )
})
