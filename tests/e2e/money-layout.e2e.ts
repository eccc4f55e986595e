import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { shot } from './support/browser.ts'
import { apiData, courseByTitle, openDevice, signIn, type DeviceKind } from './support/commerce.ts'
import { layoutProblems } from './support/layout.ts'

/**
 * The money screens as drawn at 390×844, in a phone browser and inside WeChat (issue 10 §1): the five tabs and the
 * checkout screens have no broken boxes (slivers, labels one character per line, sideways scroll), and /vip's plans
 * are cards one can choose, like /vipBuy's.
 */

async function settled(page: Page, path: string) {
  await page.goto(path)
  await page.waitForLoadState('networkidle')
}

async function expectLaidOut(page: Page, path: string) {
  await settled(page, path)
  expect({ path, problems: await layoutProblems(page) }).toEqual({ path, problems: [] })
}

describe.each<DeviceKind>(['phone', 'wechat'])('money screens laid out (%s)', (kind) => {
  it('the five tabs and the checkout screens draw no broken boxes', { timeout: 120_000 }, async () => {
    const token = await signIn()
    const course = await courseByTitle('Photoshop 人像精修实战')
    const bundles = await apiData<{ list: { id: number }[] }>('/foryou/bundles')
    const { context, page } = await openDevice(kind, token)
    for (const path of ['/', '/boutique', '/vip', '/ke1', '/mine']) await expectLaidOut(page, path)
    for (const path of [
      '/vipBuy',
      `/course/coursePurchase?course_id=${course.id}`,
      `/foryou/${bundles.list[0]!.id}`,
      '/PayAmount?amount=199&title=资料费',
    ])
      await expectLaidOut(page, path)
    await shot(page, `money-layout-${kind}-pay-amount`)
    await context.close()
  })

  it('/vip shows its plans as selectable cards; 立即开通 opens the checkout with the chosen one', async () => {
    const { context, page } = await openDevice(kind, await signIn())
    await settled(page, '/vip')
    const cards = page.getByRole('radiogroup').getByRole('radio')
    const count = await cards.count()
    expect(count).toBeGreaterThanOrEqual(2)
    for (let i = 0; i < count; i++) {
      const box = (await cards.nth(i).boundingBox())!
      // Three cards side by side on a 390 px screen: each a real card, not a sliver.
      expect(box.width).toBeGreaterThan(90)
      expect(box.height).toBeGreaterThan(100)
    }
    // The badge (热销 / 最划算) sits on one line, inside its card.
    const badges = page.getByRole('radiogroup').getByText(/^(热销|最划算)$/)
    expect(await badges.count()).toBeGreaterThan(0)
    for (let i = 0; i < (await badges.count()); i++)
      expect((await badges.nth(i).boundingBox())!.height).toBeLessThan(26)
    expect(await page.getByRole('radio', { checked: true }).count()).toBe(1)
    await shot(page, `money-vip-plans-${kind}`)

    const last = cards.nth(count - 1)
    await last.click()
    expect(await last.getAttribute('aria-checked')).toBe('true')
    expect(await page.getByRole('radio', { checked: true }).count()).toBe(1)
    const name = (await last.innerText()).split('\n').find((l) => /卡|年|月|季/.test(l))!
    await page.getByRole('link', { name: /^立即开通/ }).click()
    await page.waitForURL(/\/vipBuy\?plan_id=\d+/)
    const chosen = page.getByRole('radio', { name: new RegExp(name) })
    await expect.poll(() => chosen.getAttribute('aria-checked'), { timeout: 15_000 }).toBe('true')
    await context.close()
  })
})
