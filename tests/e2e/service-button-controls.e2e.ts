import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import { openDevice, signInWithWechat } from './support/commerce.ts'

/** The controls (buttons, fields) whose boxes the visible part of the service button overlaps. */
async function controlsUnderButton(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const button = document.querySelector('[data-testid="service-button"]')
    if (!button) return []
    const own = button.getBoundingClientRect()
    const r = {
      left: Math.max(0, own.left),
      right: Math.min(window.innerWidth, own.right),
      top: Math.max(0, own.top),
      bottom: Math.min(window.innerHeight, own.bottom),
    }
    if (r.right <= r.left || r.bottom <= r.top || getComputedStyle(button).opacity === '0') return []
    const hits: string[] = []
    for (const el of document.querySelectorAll('main button, main input, main textarea, main select')) {
      if (button.contains(el)) continue
      const b = el.getBoundingClientRect()
      if (b.width > 0 && b.left < r.right && b.right > r.left && b.top < r.bottom && b.bottom > r.top)
        hits.push(
          `${el.tagName.toLowerCase()}:${(el as HTMLElement).innerText || (el as HTMLInputElement).placeholder}`,
        )
    }
    return hits
  })
}

/**
 * The floating service button never rests over a form's controls (issue 10 §4, seen on the bind-phone form of
 * /headPortrait: it covered the right end of the 绑定手机号 button). Checked as boxes at every scroll position.
 */
describe('the service button and the bind-phone form', () => {
  it('never rests over the form’s button or fields at 390×844 inside WeChat', { timeout: 90_000 }, async () => {
    const { context, page } = await openDevice('wechat')
    try {
      await signInWithWechat(page, `按钮同学${Date.now() % 10_000}`, '/headPortrait')
      const form = page.getByRole('form', { name: '绑定手机号' })
      await expect.poll(() => form.isVisible(), { timeout: 15_000 }).toBe(true)
      const covered: string[] = []
      const height = await page.evaluate(() => document.documentElement.scrollHeight)
      for (let y = 0; y < height; y += 120) {
        await page.evaluate((top) => window.scrollTo(0, top), y)
        await page.waitForTimeout(450)
        covered.push(...(await controlsUnderButton(page)))
      }
      await form.getByRole('button', { name: '绑定手机号' }).scrollIntoViewIfNeeded()
      await page.waitForTimeout(450)
      covered.push(...(await controlsUnderButton(page)))
      await shot(page, 'service-button-bind-form')
      expect(covered).toEqual([])
    } finally {
      await context.close()
    }
  })
})
