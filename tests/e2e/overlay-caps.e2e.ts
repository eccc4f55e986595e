import pg from 'pg'
import type { Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { launchBrowser, PHONE, shot, UA_MOBILE, UA_WECHAT } from './support/browser.ts'
import { apiData, call, signIn } from './support/commerce.ts'

/**
 * Issue 10 §4: overlays on every page without a route id or `sp` (spec 9 read literally) except the spec's two
 * exceptions and the transactional pages; at most one per page view and one per session unless urgent; never
 * over the page's primary action.
 */

interface Listed {
  so_id: number
  so_name: string
}

const overlay = (page: Page) => page.getByTestId('system-overlay')

/** A phone context where every overlay but `unseen` is already seen (30-day cookies), signed in with `token`. */
async function device(wechat: boolean, unseen: number[], token?: string) {
  const browser = await launchBrowser()
  const baseUrl = inject('baseUrl')
  const context = await browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    userAgent: wechat ? UA_WECHAT : UA_MOBILE,
    baseURL: baseUrl,
  })
  if (token)
    await context.addInitScript((t) => {
      if (!localStorage.getItem('zx_token'))
        localStorage.setItem('zx_token', JSON.stringify({ token: t, expire: Date.now() + 7 * 24 * 3600_000 }))
    }, token)
  const { list } = await apiData<{ list: Listed[] }>('/systemOverlay')
  const { hostname } = new URL(baseUrl)
  const seen = list.filter((o) => !unseen.includes(o.so_id))
  if (seen.length > 0)
    await context.addCookies(seen.map((o) => ({ name: `so_seen_${o.so_id}`, value: '1', domain: hostname, path: '/' })))
  const page = await context.newPage()
  page.on('pageerror', (err) => {
    throw err
  })
  return { context, page }
}

async function noOverlay(page: Page, path: string) {
  await page.goto(path)
  await page.waitForTimeout(900)
  expect(await overlay(page).count(), path).toBe(0)
}

describe.each([false, true])('overlays, caps and places (WeChat: %s)', (wechat) => {
  it('shows one notice on a page outside the old list, no second one, and none on transactional pages', async () => {
    const { list } = await apiData<{ list: Listed[] }>('/systemOverlay')
    expect(list.length).toBeGreaterThanOrEqual(2)
    const { context, page } = await device(
      wechat,
      list.map((o) => o.so_id),
    )
    for (const path of ['/vipBuy', '/course/coursePurchase', '/PaymentSuccessful', '/refund', '/ke2', '/vip/d'])
      await noOverlay(page, path)
    await noOverlay(page, '/ke?sp=promo7')

    // /ke (all courses) is under "/": one notice, the first in the operator's order.
    await page.goto('/ke')
    await expect.poll(() => overlay(page).getByRole('dialog', { name: list[0]!.so_name }).isVisible()).toBe(true)
    await page.waitForTimeout(400)
    await shot(page, `overlay-caps-ke-${wechat ? 'wechat' : 'phone'}`)
    await overlay(page).getByRole('button', { name: '关闭' }).click()
    // Not the next one on the same page view, nor on the next page of the session.
    await page.waitForTimeout(900)
    expect(await overlay(page).count()).toBe(0)
    await noOverlay(page, '/boutique')
    await noOverlay(page, '/mine')
    const seen = (await context.cookies()).find((c) => c.name === `so_seen_${list[0]!.so_id}`)!
    expect(seen.expires * 1000 - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000)
    expect((await context.cookies()).some((c) => c.name === `so_seen_${list[1]!.so_id}`)).toBe(false)

    // An urgent notice the operator adds still shows this session, once.
    const db = new pg.Client({ connectionString: inject('databaseUrl') })
    await db.connect()
    const { rows } = await db.query<{ id: number }>(
      `insert into system_overlays (type, name, content, button_text, urgent, sort)
       values (1, '紧急：今晚系统维护', '<p>22:00–23:00 暂停播放</p>', '我知道了', true, -1) returning id`,
    )
    try {
      await page.goto('/studyRecord')
      await expect.poll(() => overlay(page).getByRole('dialog', { name: '紧急：今晚系统维护' }).isVisible()).toBe(true)
      await overlay(page).getByRole('button', { name: '关闭' }).click()
      await noOverlay(page, '/')
    } finally {
      await db.query('delete from system_overlays where id = $1', [rows[0]!.id])
      await db.end()
    }
    await context.close()
  })

  it('leaves the page’s primary action bar uncovered and tappable', async () => {
    const { list } = await apiData<{ list: Listed[] }>('/systemOverlay')
    const token = await signIn()
    const courses = await apiData<{ list: { id: number }[] }>('/v2/course_list?limit=5')
    expect((await call('POST', '/course/fav', { token, body: { course_id: courses.list[0]!.id } })).code).toBe(200)
    const { context, page } = await device(wechat, [list[0]!.so_id], token)
    await page.goto('/myCollection')
    const bar = page.getByTestId('fav-calc')
    await expect.poll(() => bar.isVisible(), { timeout: 15_000 }).toBe(true)
    await expect.poll(() => overlay(page).isVisible()).toBe(true)
    await page.waitForTimeout(400)
    await shot(page, `overlay-caps-primary-${wechat ? 'wechat' : 'phone'}`)
    const barBox = (await bar.boundingBox())!
    const maskBox = (await overlay(page).boundingBox())!
    expect(maskBox.y + maskBox.height).toBeLessThanOrEqual(barBox.y + 0.5)
    const onTop = await page.evaluate(
      ([x, y]) => !!document.elementFromPoint(x!, y!)?.closest('[data-testid="fav-calc"]'),
      [barBox.x + barBox.width - 40, barBox.y + barBox.height / 2],
    )
    expect(onTop).toBe(true)
    await context.close()
  })

  it('never covers nor dims an in-flow primary button (/vip 立即开通)', async () => {
    const { list } = await apiData<{ list: Listed[] }>('/systemOverlay')
    const { context, page } = await device(wechat, [list[0]!.so_id])
    await page.goto('/vip')
    const buy = page.getByRole('link', { name: /^立即开通/ })
    await expect.poll(() => buy.isVisible(), { timeout: 15_000 }).toBe(true)
    await page.waitForTimeout(1200)
    await shot(page, `overlay-caps-vip-${wechat ? 'wechat' : 'phone'}`)
    const box = (await buy.boundingBox())!
    // The button is in the first screen, and what is at its middle is the button itself, not a mask over it.
    expect(box.y + box.height).toBeLessThanOrEqual(844)
    const onTop = await page.evaluate(
      ([x, y]) => !!document.elementFromPoint(x!, y!)?.closest('a[href^="/vipBuy"]'),
      [box.x + box.width / 2, box.y + box.height / 2],
    )
    expect(onTop).toBe(true)
    if ((await overlay(page).count()) > 0) {
      const mask = (await overlay(page).boundingBox())!
      expect(mask.y + mask.height).toBeLessThanOrEqual(box.y + 0.5)
    }
    await context.close()
  })
})
