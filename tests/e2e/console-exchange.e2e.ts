import { describe, expect, inject, it } from 'vitest'
import { launchBrowser, shot } from './support/browser.ts'
import { call, DESKTOP, latestCode, signIn, signInOperator, stepUpProof } from './support/commerce.ts'

/**
 * Platform exchange in the operator console (issue 14 §2) at 1280×800: an operator sees the demo's SKU mappings,
 * finds a learner's Douyin exchange among the records and takes it back with a reason.
 */

const baseUrl = inject('baseUrl')

/** Buys a voucher on the Douyin simulator's page (as its form does) and answers its code. */
async function buyVoucher(sku: string) {
  const res = await fetch(`${baseUrl}/__sim/douyin/buy`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ sku, kind: 'voucher' }).toString(),
  })
  return /券码 (\d{12})/.exec(await res.text())![1]!
}

describe('platform exchange in the console', () => {
  it('lists the SKU mappings and takes an exchange back with a reason', { timeout: 120_000 }, async () => {
    const [admin, learner] = await Promise.all([signInOperator(), signIn()])
    const exchanged = await call('POST', '/tiktok/order2course', {
      token: learner,
      body: { order_no: await buyVoucher('DY-SKU-1002') },
    })
    expect(exchanged.code).toBe(200)

    const phone = `16${String(Date.now()).slice(-8)}${process.pid % 10}`
    const granted = await call('POST', '/admin/staff', {
      token: admin,
      headers: { 'x-step-up': await stepUpProof(admin) },
      body: { phone, roles: ['operator'] },
    })
    expect(granted.code).toBe(200)

    const browser = await launchBrowser()
    const context = await browser.newContext({ viewport: DESKTOP, locale: 'zh-CN', baseURL: baseUrl })
    const page = await context.newPage()
    page.on('pageerror', (err) => {
      throw err
    })
    await page.goto('/admin')
    await page.waitForURL(/\/admin\/login$/)
    await page.getByLabel('手机号').fill(phone)
    await page.getByRole('button', { name: '获取验证码' }).click()
    await expect.poll(() => page.getByText('验证码已发送').isVisible(), { timeout: 10_000 }).toBe(true)
    await page.getByLabel('验证码').fill(await latestCode(phone))
    await page
      .getByRole('button', { name: '登 录' })
      .or(page.getByRole('button', { name: '登录' }))
      .first()
      .click()
    await page.waitForURL(/\/admin$/)

    await page.getByRole('menuitem', { name: '商品映射' }).click()
    await page.waitForURL(/\/admin\/sales\/exchange-skus/)
    await expect.poll(() => page.getByText('DY-SKU-1001').first().isVisible(), { timeout: 10_000 }).toBe(true)
    await shot(page, 'console-exchange-skus')

    await page.getByRole('menuitem', { name: '平台订单兑换' }).click()
    await page.waitForURL(/\/admin\/sales\/exchange-records/)
    const row = page.getByRole('row', { name: /Excel 函数与公式实战/ }).first()
    await expect.poll(() => row.isVisible(), { timeout: 10_000 }).toBe(true)
    await row.getByText('收回').click()
    await page.getByLabel('原因').fill('买家在抖音申请了退款')
    await shot(page, 'console-exchange-revoke')
    await page.getByRole('button', { name: '确认收回' }).click()
    await expect.poll(() => page.getByText('团购券已在抖音撤销核销').isVisible(), { timeout: 10_000 }).toBe(true)
    await expect.poll(() => row.getByText('已收回').isVisible(), { timeout: 10_000 }).toBe(true)
    await shot(page, 'console-exchange-records')
    await context.close()
  })
})
