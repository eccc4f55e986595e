import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { launchBrowser, PHONE, shot, UA_MOBILE } from './support/browser.ts'

/**
 * Buying on a phone (issue 4): a member buys a paid course with WeChat Pay H5 through the simulator's cashier,
 * comes back through /payRedirect to the result, the course opens in full, and the order is listed as paid.
 */

const baseUrl = inject('baseUrl')

interface Envelope<T> {
  code: number
  msg: string
  data: T
}

async function apiGet<T>(path: string, token?: string): Promise<Envelope<T>> {
  const res = await fetch(`${baseUrl}/api${path}`, { headers: token ? { 'zxb-token': token } : {} })
  return (await res.json()) as Envelope<T>
}

/** Signs a new member in through the SMS endpoints, reading the code from the development outbox. */
async function signIn(phone: string): Promise<string> {
  const post = (path: string, body: object) =>
    fetch(`${baseUrl}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<Envelope<{ token: string }>>)
  const sent = await post('/send_code', { phone })
  if (sent.code !== 200) throw new Error(`send_code: ${sent.msg}`)
  const outbox = await apiGet<{ list: { code: string; sent_at: string }[] }>(`/dev/outbox?phone=${phone}`)
  const code = [...outbox.data.list].sort((a, b) => b.sent_at.localeCompare(a.sent_at))[0]!.code
  const login = await post('/login', { phone, phone_code: code, platform: 2 })
  if (login.code !== 200) throw new Error(`login: ${login.msg}`)
  return login.data.token
}

async function device(token: string): Promise<{ context: BrowserContext; page: Page }> {
  const browser = await launchBrowser()
  const context = await browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    baseURL: baseUrl,
    userAgent: UA_MOBILE,
  })
  await context.addInitScript((t) => {
    localStorage.setItem('zx_token', JSON.stringify({ token: t, expire: Date.now() + 7 * 24 * 3600_000 }))
  }, token)
  // The system overlays of the home page would cover the screens under test.
  const overlays = await apiGet<{ list: { so_id: number }[] }>('/systemOverlay')
  const { hostname } = new URL(baseUrl)
  await context.addCookies(
    overlays.data.list.map((o) => ({ name: `so_seen_${o.so_id}`, value: '1', domain: hostname, path: '/' })),
  )
  const page = await context.newPage()
  page.on('pageerror', (err) => {
    throw err
  })
  return { context, page }
}

interface CourseVideo {
  id: number
  is_free: boolean
  free_seconds: number
}

async function courseByTitle(title: string) {
  const list = await apiGet<{ list: { id: number; title: string }[] }>('/v2/course_list?limit=50')
  const found = list.data.list.find((c) => c.title === title)
  if (!found) throw new Error(`no course ${title}`)
  return (
    await apiGet<{ id: number; title: string; price_fen: number; chapters: { videos: CourseVideo[] }[] }>(
      `/course?id=${found.id}`,
    )
  ).data
}

describe('buying a course on a phone', () => {
  it(
    'pays with WeChat Pay H5 at the simulator cashier, lands on the result, and the course plays in full',
    { timeout: 120_000 },
    async () => {
      const token = await signIn('13755550101')
      const { context, page } = await device(token)
      const course = await courseByTitle('Photoshop 零基础入门')
      const paidVideo = course.chapters.flatMap((c) => c.videos).find((v) => !v.is_free)!

      const before = await apiGet<{ until_second: number | null }>(`/video/play?vid=${paidVideo.id}`, token)
      expect(before.code === 474 || (before.code === 200 && before.data.until_second !== null)).toBe(true)

      // The course page offers to buy it at its price.
      await page.goto(`/course/${course.id}.html`)
      const buy = page.getByRole('link', { name: /^立即购买 ¥/ })
      await expect.poll(() => buy.isVisible(), { timeout: 10_000 }).toBe(true)
      await shot(page, 'purchase-course-page')
      await buy.click()
      await page.waitForURL(/\/course\/coursePurchase\?course_id=\d+/)

      // Order confirmation: price, points, two methods on a phone browser, the agreement.
      await expect.poll(() => page.getByText(course.title).first().isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await page.getByRole('radio', { name: /微信支付/ }).isChecked()).toBe(true)
      expect(await page.getByRole('radio', { name: /支付宝/ }).isVisible()).toBe(true)
      const pay = page.getByRole('button', { name: /^立即支付 ¥/ })
      await shot(page, 'purchase-checkout')
      await pay.click()
      await expect.poll(() => page.locator('.adm-toast-main', { hasText: '请先阅读并同意' }).isVisible()).toBe(true)
      await page.getByLabel('我已阅读并同意').check()
      await pay.click()

      // The simulator's cashier (WeChat Pay H5): press 确认支付.
      await page.waitForURL(/\/__sim\/wechatpay\//, { timeout: 15_000 })
      await shot(page, 'purchase-cashier')
      await page.getByRole('button', { name: '确认支付' }).click()

      // Back through /payRedirect to the result.
      await page.waitForURL(/\/PaymentSuccessful\?order_no=/, { timeout: 30_000 })
      await expect.poll(() => page.getByText('支付成功').first().isVisible(), { timeout: 10_000 }).toBe(true)
      await shot(page, 'purchase-result')
      const orderNo = new URL(page.url()).searchParams.get('order_no')!

      // 去学习 → the player, at the first lesson (nothing watched yet); the course page then offers to go on.
      await expect
        .poll(() => page.getByRole('link', { name: '去学习' }).getAttribute('href'), { timeout: 10_000 })
        .toMatch(/^\/v\/\d+\.html$/)
      await page.getByRole('link', { name: '去学习' }).click()
      await page.waitForURL(/\/v\/\d+\.html/)
      const firstVid = (await apiGet<{ first_vid: number }>(`/course/access?course_id=${course.id}`, token)).data
        .first_vid
      expect(new URL(page.url()).pathname).toBe(`/v/${firstVid}.html`)
      await page.goto(`/course/${course.id}.html`)
      await expect
        .poll(() => page.getByRole('link', { name: /开始学习|继续学习/ }).isVisible(), { timeout: 10_000 })
        .toBe(true)
      await shot(page, 'purchase-course-owned')

      const after = await apiGet<{ until_second: number | null }>(`/video/play?vid=${paidVideo.id}`, token)
      expect(after.code).toBe(200)
      expect(after.data.until_second).toBeNull()

      // The order list shows it as paid, and its detail has its history.
      await page.goto('/order')
      const row = page.getByRole('link', { name: new RegExp(course.title) })
      await expect.poll(() => row.isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await row.textContent()).toContain('已支付')
      await shot(page, 'purchase-orders')
      await row.click()
      await page.waitForURL(new RegExp(`/order/${orderNo}$`))
      await expect.poll(() => page.getByText('支付成功').first().isVisible(), { timeout: 10_000 }).toBe(true)
      await shot(page, 'purchase-order-detail')

      // The refund screen explains the rules and accepts a request.
      await page.getByRole('link', { name: '申请退款' }).click()
      await page.waitForURL(/\/refund\//)
      await expect.poll(() => page.getByText('退款规则').isVisible(), { timeout: 10_000 }).toBe(true)
      await shot(page, 'purchase-refund')

      // Points earned by the order.
      await page.goto('/points')
      await expect.poll(() => page.getByTestId('points-balance').isVisible(), { timeout: 10_000 }).toBe(true)
      await shot(page, 'purchase-points')

      // The VIP checkout and the other order lists render.
      await page.goto('/vipBuy')
      await expect
        .poll(() => page.getByRole('button', { name: /^立即支付 ¥/ }).isVisible(), { timeout: 10_000 })
        .toBe(true)
      await shot(page, 'purchase-vip-buy')
      await page.goto('/order4')
      await expect.poll(() => page.getByText('还没有兑换记录').isVisible(), { timeout: 10_000 }).toBe(true)
      await page.goto('/PayAmount?amount=99.5&title=学费')
      await expect.poll(() => page.getByText('¥99.5').first().isVisible(), { timeout: 10_000 }).toBe(true)
      await shot(page, 'purchase-pay-amount')
      await context.close()
    },
  )
})
