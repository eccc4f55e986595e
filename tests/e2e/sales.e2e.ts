import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import { apiData, call, grantStaff, newPhone, openDevice, signIn, signInOperator } from './support/commerce.ts'
import type { SalesFigures } from '#shared/api/sales.ts'
import { formatFigure } from '#shared/money.ts'

/**
 * /data/sell (issue 14 §2): staff with sales.read (here finance) read today's, yesterday's and this month's figures
 * on a phone; a Kuaishou order exchanged meanwhile shows in today's Kuaishou row. A learner gets the 403 message.
 */
describe('the sales figures page for staff', () => {
  it('shows a finance member the figures of the API, and a learner the 403 message', { timeout: 120_000 }, async () => {
    const admin = await signInOperator()
    const finance = await signIn(await grantStaff(admin, ['finance']))
    const kuaishouToday = async () => {
      const figures = await apiData<SalesFigures>('/data/sell', finance)
      return figures.periods[0]!.channels.find((c) => c.key === 'exchange:kuaishou')!
    }
    const before = await kuaishouToday()

    // A buyer exchanges a Kuaishou order (¥99 on the simulator).
    const phone = newPhone()
    const buyer = await signIn(phone)
    const { context: shop, page: sim } = await openDevice('phone', buyer)
    await sim.goto('/__sim/kuaishou/')
    await sim.getByLabel('商品').selectOption('KS-SKU-1001')
    await sim.getByLabel('下单手机号').fill(phone)
    await sim.getByRole('button', { name: '立即购买' }).click()
    const orderId = /订单号 (\d{16})/.exec((await sim.getByRole('status').textContent()) ?? '')![1]!
    await shop.close()
    expect((await call('POST', '/ksxd/order2course', { token: buyer, body: { order_no: orderId } })).code).toBe(200)
    const after = await kuaishouToday()
    expect(after.orders).toBe(before.orders + 1)
    expect(after.revenue_fen).toBe(before.revenue_fen + 9900)

    for (const kind of ['phone', 'wechat'] as const) {
      const { context, page } = await openDevice(kind, finance)
      await page.goto('/data/sell')
      const row = page.getByTestId('exchange:kuaishou')
      await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true)
      expect(await row.locator('td').allTextContents()).toEqual([
        '快手小店订单',
        String(after.orders),
        formatFigure(after.revenue_fen),
      ])
      expect(await page.getByTestId('period-today').getAttribute('aria-pressed')).toBe('true')
      expect(await page.getByRole('button', { name: /客服/ }).count()).toBe(0)
      await shot(page, `data-sell${kind === 'wechat' ? '-wechat' : ''}`)
      await page.getByTestId('period-month').click()
      expect(await page.getByRole('heading', { name: '本月 · 本站订单' }).isVisible()).toBe(true)
      await shot(page, `data-sell-month${kind === 'wechat' ? '-wechat' : ''}`)
      await context.close()
    }

    const { context, page } = await openDevice('wechat', buyer)
    await page.goto('/data/sell')
    const denied = page.getByTestId('sales-denied')
    await expect.poll(() => denied.isVisible(), { timeout: 15_000 }).toBe(true)
    expect(await page.getByRole('heading', { name: '没有权限查看销售数据' }).isVisible()).toBe(true)
    await shot(page, 'data-sell-denied-wechat')
    await context.close()
  })
})
