import type { BrowserContext, Page } from 'playwright-core'
import { expect, inject } from 'vitest'
import { launchBrowser } from './browser.ts'
import { DESKTOP } from './commerce.ts'

// The operator console's journeys (issue 13): a desktop (or tablet) context, signed in or not, and waiting for
// tables and charts to settle before a screenshot. Staff are made with `grantStaff` (commerce.ts).

/** A browser context at the console's viewport (1280×800 unless told), failing on any page error. */
export async function consoleContext(viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const browser = await launchBrowser()
  const context = await browser.newContext({ viewport, locale: 'zh-CN', baseURL: inject('baseUrl') })
  const page = await context.newPage()
  page.on('pageerror', (err) => {
    throw err
  })
  return { context, page }
}

/** A console context already signed in with this token (the learner app's `zx_token` record). */
export async function consoleAs(token: string, viewport = DESKTOP) {
  const opened = await consoleContext(viewport)
  await opened.context.addInitScript((t) => {
    localStorage.setItem('zx_token', JSON.stringify({ token: t, expire: Date.now() + 3600_000 }))
  }, token)
  return opened
}

/** Waits until no table is loading, so a screenshot shows the rows as an operator reads them. */
export async function settled(page: Page) {
  await expect
    .poll(() => page.locator('.ant-spin-spinning, .ant-card-loading, .zx-dash-chart-wait').count(), {
      timeout: 15_000,
    })
    .toBe(0)
}
