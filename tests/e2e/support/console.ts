import type { BrowserContext, Page } from 'playwright-core'
import { expect, inject } from 'vitest'
import { launchBrowser } from './browser.ts'
import { call, DESKTOP, stepUpProof } from './commerce.ts'

// The operator console's journeys (issue 13): staff made through the staff API, a desktop (or tablet) context, and
// waiting for tables to settle before a screenshot.

let seq = 0
/** A fresh phone number for a staff member of this run. */
export const staffPhone = () => `16${String(Date.now()).slice(-7)}${++seq % 10}${process.pid % 10}`

/** An admin grants these roles to a new phone through the staff API (with its step-up proof). */
export async function staffMember(admin: string, roles: string[]) {
  const phone = staffPhone()
  const granted = await call('POST', '/admin/staff', {
    token: admin,
    headers: { 'x-step-up': await stepUpProof(admin) },
    body: { phone, roles },
  })
  if (granted.code !== 200) throw new Error(`grant ${roles.join()}: ${granted.msg}`)
  return phone
}

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
  await expect.poll(() => page.locator('.ant-spin-spinning').count(), { timeout: 10_000 }).toBe(0)
}
