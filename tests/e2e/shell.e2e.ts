import { describe, expect, it } from 'vitest'
import { phone, shot } from './support/browser.ts'

describe('the site opens on a phone', () => {
  it('renders the home page in Chinese', async () => {
    const { page, context } = await phone()
    const res = await page.goto('/')
    expect(res?.status()).toBe(200)
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('zh-CN')
    await shot(page, 'home')
    await context.close()
  })
})
