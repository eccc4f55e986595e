import fs from 'node:fs'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, inject } from 'vitest'

export const PHONE = { width: 390, height: 844 }
export const UA_MOBILE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1'
export const UA_WECHAT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.61(0x18003d2f) NetType/WIFI Language/zh_CN'

const screenshotDir = path.resolve(import.meta.dirname, '../screenshots')

let browser: Browser | undefined

/**
 * Debian's Chromium, headless; Playwright's own browser downloads cannot work on these machines. Its own words (date
 * fields' 年/月/日, file pickers, validation bubbles) in Chinese, as learners and operators see them: on Linux it
 * takes them from LANGUAGE, with Debian's chromium-l10n installed (.ci/run); the contexts' `locale` does not reach
 * them.
 */
export async function launchBrowser(): Promise<Browser> {
  browser ??= await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    env: { ...process.env, LANGUAGE: 'zh_CN' },
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  })
  return browser
}

afterAll(async () => {
  await browser?.close()
  browser = undefined
})

/** A fresh phone context (390×844, touch); `wechat` gives it WeChat's in-app browser user agent. */
export async function phone(
  options: { wechat?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; baseUrl: string }> {
  const b = await launchBrowser()
  const baseUrl = inject('baseUrl')
  const context = await b.newContext({
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    userAgent: options.wechat ? UA_WECHAT : UA_MOBILE,
    baseURL: baseUrl,
  })
  const page = await context.newPage()
  page.on('pageerror', (err) => {
    throw err
  })
  // A page the Content-Security-Policy breaks fails its test (the browser reports each blocked load here).
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      throw new Error(`CSP violation on ${page.url()}: ${message.text()}`)
  })
  return { context, page, baseUrl }
}

/**
 * A finger's quick tap at (x, y): 30 ms from touch to release by the events' own clocks. Playwright's
 * `touchscreen.tap` sends the two through separate round trips, and a loaded machine can let 100 ms pass between
 * them, which the service button rightly takes for a press, not a tap (spec 2). Chromium stamps the events with the
 * times given here.
 */
export async function quickTap(page: Page, x: number, y: number) {
  const cdp = await page.context().newCDPSession(page)
  const at = Date.now() / 1000
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }], timestamp: at })
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [], timestamp: at + 0.03 })
  await cdp.detach()
}

/** Saves a screenshot to tests/e2e/screenshots/ (ignored by git) to look at. */
export async function shot(page: Page, name: string) {
  fs.mkdirSync(screenshotDir, { recursive: true })
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: false })
}

/**
 * Marks every system overlay as seen in this context (their 30-day cookies), for journeys about something else:
 * overlays may show on any page outside a transaction (issue 10 §4) and would cover what the journey taps.
 */
export async function skipOverlays(context: BrowserContext) {
  const baseUrl = inject('baseUrl')
  const res = await fetch(`${baseUrl}/api/systemOverlay`)
  const { data } = (await res.json()) as { data: { list: { so_id: number }[] } }
  const { hostname } = new URL(baseUrl)
  await context.addCookies(
    data.list.map((o) => ({ name: `so_seen_${o.so_id}`, value: '1', domain: hostname, path: '/' })),
  )
}
