import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import { openDevice, type DeviceKind } from './support/commerce.ts'

/** Issue 10 §5 and §6: consent at sign-in, the two documents reachable from sign-in and /mine, digits only. */
describe.each<DeviceKind>(['phone', 'wechat'])('consent and the phone field (%s)', (kind) => {
  it('asks for agreement before WeChat sign-in, links both documents, and keeps only digits', async () => {
    const { context, page } = await openDevice(kind)
    await page.goto('/mine')
    await page.getByRole('button', { name: '登录 / 注册' }).click()
    const popup = page.getByTestId('login-popup')
    await expect.poll(() => popup.isVisible()).toBe(true)
    const agree = popup.getByRole('checkbox', { name: /我已阅读并同意/ })
    expect(await agree.isChecked()).toBe(false)

    const phone = popup.getByPlaceholder('请输入手机号')
    expect(await phone.getAttribute('inputmode')).toBe('numeric')
    expect(await phone.getAttribute('pattern')).toBe('[0-9]*')
    await phone.fill('+86 138-0013-8000')
    expect(await phone.inputValue()).toBe('13800138000')
    await phone.fill('13a8b')
    expect(await phone.inputValue()).toBe('138')

    if (kind === 'wechat') {
      // Without agreement the WeChat button does not leave for WeChat's authorisation.
      await popup.getByRole('button', { name: '微信登录' }).click()
      await expect.poll(() => page.getByText('请先阅读并同意《用户协议》和《隐私政策》').isVisible()).toBe(true)
      expect(new URL(page.url()).pathname).toBe('/mine')
    }
    await shot(page, `consent-sign-in-${kind}`)

    await popup.getByRole('link', { name: '《隐私政策》' }).click()
    await page.waitForURL(/\/agreement\/privacy$/)
    await expect.poll(() => page.getByRole('heading', { level: 1, name: '自学隐私政策' }).isVisible()).toBe(true)
    for (const words of ['手机号', 'openid', 'unionid', '学习记录', '支付记录', '保存多久', '注销'])
      expect(await page.getByText(words).first().isVisible(), words).toBe(true)
    await shot(page, `consent-privacy-${kind}`)

    await page.goto('/mine')
    await page.getByRole('link', { name: '用户协议' }).click()
    await page.waitForURL(/\/agreement\/user$/)
    await expect.poll(() => page.getByRole('heading', { level: 1, name: '自学用户协议' }).isVisible()).toBe(true)
    await context.close()
  })
})
