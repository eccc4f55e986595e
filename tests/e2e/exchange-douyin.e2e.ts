import { describe, expect, inject, it } from 'vitest'
import { launchBrowser, PHONE, shot, skipOverlays, UA_MOBILE } from './support/browser.ts'

/**
 * Exchanging a Douyin order on a phone (issue 14 §2): a person buys a group-buy voucher on the Douyin simulator's
 * page, pastes its code on /data/tt, gets the course, plays it; a refund on Douyin takes the course back from /ke1.
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
  await post('/send_code', { phone })
  const outbox = await apiGet<{ list: { code: string; sent_at: string }[] }>(`/dev/outbox?phone=${phone}`)
  const code = [...outbox.data.list].sort((a, b) => b.sent_at.localeCompare(a.sent_at))[0]!.code
  const login = await post('/login', { phone, phone_code: code, platform: 2 })
  if (login.code !== 200) throw new Error(`login: ${login.msg}`)
  return login.data.token
}

describe('exchanging a Douyin group-buy voucher on a phone', () => {
  it(
    'buys on the Douyin simulator, exchanges on /data/tt, plays the course; a Douyin refund takes it back',
    { timeout: 120_000 },
    async () => {
      const token = await signIn('13755550141')
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
      await skipOverlays(context)
      const page = await context.newPage()
      page.on('pageerror', (err) => {
        throw err
      })

      // Buy a voucher for the Photoshop course on the simulator's page.
      await page.goto('/__sim/douyin/')
      await page.getByLabel('商品').selectOption('DY-SKU-1001')
      await page.getByRole('button', { name: '立即购买' }).click()
      const notice = (await page.getByRole('status').textContent()) ?? ''
      const code = /券码 (\d{12})/.exec(notice)![1]!
      await shot(page, 'exchange-douyin-simulator')

      // Paste it on /data/tt as people do: in groups, inside a sentence.
      await page.goto('/data/tt')
      const input = page.getByLabel('订单号或券码')
      await expect.poll(() => input.isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await page.getByRole('img', { name: /团购券码和订单编号/ }).isVisible()).toBe(true)
      await input.fill(`券码：${code.replace(/(\d{4})(?=\d)/g, '$1 ')}，复制打开抖音`)
      await shot(page, 'exchange-douyin-form')
      await page.getByRole('button', { name: '兑换课程' }).click()
      const result = page.getByTestId('exchange-result')
      await expect.poll(() => result.isVisible(), { timeout: 15_000 }).toBe(true)
      expect(await result.textContent()).toContain('Photoshop 零基础入门')
      // The floating service button is hidden on /data pages (spec 2).
      expect(await page.getByRole('button', { name: /客服/ }).count()).toBe(0)
      await shot(page, 'exchange-douyin-result')

      // 开始学习 → the course page → the player, and a paid lesson plays in full.
      await result.getByRole('link', { name: '开始学习' }).first().click()
      await page.waitForURL(/\/course\/\d+\.html/)
      const courseId = Number(/\/course\/(\d+)\.html/.exec(page.url())![1])
      const start = page.getByRole('link', { name: /开始学习|继续学习/ })
      await expect.poll(() => start.isVisible(), { timeout: 10_000 }).toBe(true)
      await start.click()
      await page.waitForURL(/\/v\/\d+\.html/)
      const course = await apiGet<{ chapters: { videos: { id: number; is_free: boolean }[] }[] }>(
        `/course?id=${courseId}`,
      )
      const paid = course.data.chapters.flatMap((c) => c.videos).find((v) => !v.is_free)!
      const play = await apiGet<{ until_second: number | null }>(`/video/play?vid=${paid.id}`, token)
      expect(play.code).toBe(200)
      expect(play.data.until_second).toBeNull()
      await shot(page, 'exchange-douyin-player')

      // Douyin refunds the voucher: its signed push revokes the course, and /ke1 no longer lists it.
      await page.goto('/__sim/douyin/')
      await page.getByRole('button', { name: '退款' }).first().click()
      await expect
        .poll(
          async () =>
            (await apiGet<{ until_second: number | null }>(`/video/play?vid=${paid.id}`, token)).data?.until_second ??
            0,
          {
            timeout: 10_000,
          },
        )
        .not.toBeNull()
      await page.goto('/ke1')
      await expect
        .poll(() => page.getByRole('heading', { name: '已购课程' }).isVisible(), { timeout: 10_000 })
        .toBe(true)
      expect(await page.getByText('Photoshop 零基础入门').count()).toBe(0)
      await shot(page, 'exchange-douyin-refunded')
      await context.close()
    },
  )
})
