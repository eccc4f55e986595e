import pg from 'pg'
import { describe, expect, inject, it } from 'vitest'
import { shot } from './support/browser.ts'
import { latestCode, newPhone, openDevice } from './support/commerce.ts'

/**
 * A buyer who paid on Douyin lands on /ke2 (spec 6, issue 14 §3): signs in with the purchase phone (the only way
 * offered), sees the orders bought with it on every registered platform, exchanges them all at once — a mapped
 * product opens its course, an unmapped one says to contact service — and finds each platform's exchange screen.
 */
async function reported(phone: string) {
  const db = new pg.Client({ connectionString: inject('databaseUrl') })
  await db.connect()
  try {
    const { rows } = await db.query<{ n: number }>(
      'select count(*)::int as n from platform_orders where buyer_phone = $1',
      [phone],
    )
    return rows[0]!.n
  } finally {
    await db.end()
  }
}

describe('/ke2: the purchaser exchanges what they bought elsewhere', () => {
  it('signs in with the purchase phone and exchanges every unexchanged order', { timeout: 120_000 }, async () => {
    const phone = newPhone()
    const { context, page } = await openDevice('phone')

    // Two Douyin shop orders with this phone: a mapped course and a product no course is mapped to.
    for (const sku of ['DY-SKU-1002', 'DY-SKU-9999']) {
      await page.goto('/__sim/douyin/')
      await page.getByLabel('商品').selectOption(sku)
      await page.getByLabel('方式').selectOption('shop')
      await page.getByLabel('下单手机号').fill(phone)
      await page.getByRole('button', { name: '立即购买' }).click()
      expect(await page.getByRole('status').textContent()).toContain('抖店订单号')
    }
    // The platform sync (every 10 s in the journeys) reports them.
    await expect.poll(() => reported(phone), { timeout: 40_000, interval: 1000 }).toBe(2)

    await page.goto('/ke2')
    const phoneInput = page.getByPlaceholder('请输入购买课程时用的手机号')
    await phoneInput.fill(phone)
    await page.getByTestId('send-code').click()
    await expect.poll(() => page.getByTestId('send-code').textContent()).toMatch(/^\d+s$/)
    await page.getByPlaceholder('请输入验证码').fill(await latestCode(phone))
    await page.getByRole('checkbox', { name: /我已阅读并同意/ }).check()
    await page.getByRole('button', { name: '登录', exact: true }).click()

    // The screen shows the member's orders at once, without reloading (a reload would cut "exchange all" off).
    let reloaded = false
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloaded = true
    })
    const orders = page.getByTestId('unexchanged-order')
    await expect.poll(() => orders.count(), { timeout: 15_000 }).toBe(2)
    expect(await page.getByRole('heading', { name: /购买、还没兑换的订单/ }).textContent()).toContain('****')
    expect(await orders.first().textContent()).toContain('抖音')
    const all = page.getByRole('button', { name: '全部兑换（2 个订单）' })
    expect((await all.boundingBox())!.height).toBeGreaterThanOrEqual(44)
    const douyin = page.getByRole('link', { name: /抖音订单兑换/ })
    expect(await douyin.getAttribute('href')).toBe('/data/tt')
    expect((await douyin.boundingBox())!.height).toBeGreaterThanOrEqual(44)
    await shot(page, 'ke2-orders')

    await all.click()
    const result = page.getByTestId('exchange-result')
    await expect.poll(() => result.count(), { timeout: 15_000 }).toBe(1)
    expect(await result.textContent()).toContain('Excel 函数与公式实战')
    await shot(page, 'ke2-exchanged')
    expect(await page.getByRole('alert').textContent()).toContain('暂未关联课程，请联系客服处理')
    // The refused order stays to be exchanged once service maps it.
    await expect.poll(() => orders.count()).toBe(1)
    await shot(page, 'ke2-exchanged')

    await page.waitForTimeout(2000)
    expect(reloaded).toBe(false)

    // The same screen inside WeChat.
    const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('zx_token')!) as { token: string }).token)
    const wechat = await openDevice('wechat', token)
    await wechat.page.goto('/ke2')
    await expect.poll(() => wechat.page.getByTestId('unexchanged-order').count(), { timeout: 15_000 }).toBe(1)
    await shot(wechat.page, 'ke2-wechat')
    await wechat.context.close()

    await douyin.click()
    await page.waitForURL(/\/data\/tt$/)
    await context.close()
  })
})
