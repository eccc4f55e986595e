import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { Sections } from '#app/routes/admin/nav.ts'
import { shot } from './support/browser.ts'
import { signInOperator } from './support/commerce.ts'
import { consoleAs, settled } from './support/console.ts'

/**
 * Every console screen at 1280×800 (an operator's laptop): nothing of a list lies past the window's right edge.
 * A table wider than its space scrolls inside its own box, its header cells within reach of that scroll, its actions
 * column (编辑/删除) pinned in view without scrolling; a search box shows its whole placeholder.
 */

/** What lies outside where an operator can see or reach it, on the screen shown. */
function cutOff(): string[] {
  const found: string[] = []
  const width = window.innerWidth
  const text = (el: Element) => (el.textContent ?? '').trim().slice(0, 20) || el.tagName
  const page = document.documentElement.scrollWidth
  if (page > width + 1) found.push(`the page is ${page}px wide`)
  for (const table of document.querySelectorAll<HTMLElement>('.ant-table-wrapper')) {
    if (!table.offsetParent || table.closest('.ant-drawer, .ant-modal')) continue
    const scroller = table.querySelector<HTMLElement>('.ant-table-content, .ant-table-body') ?? table
    const box = scroller.getBoundingClientRect()
    if (box.right > width + 1) found.push(`a table ends at x=${Math.round(box.right)}`)
    // Every column header in view as the screen opens: a column past the edge is one the operator never sees.
    const visible = Math.min(box.right, width)
    for (const th of table.querySelectorAll<HTMLElement>('thead th')) {
      const r = th.getBoundingClientRect()
      if (r.width > 0 && (r.right > visible + 1 || r.left < box.left - 1))
        found.push(`header 「${text(th)}」 at x=${Math.round(r.left)}–${Math.round(r.right)}`)
    }
    // The last column holds a row's actions: in view without scrolling the table.
    for (const action of table.querySelectorAll<HTMLElement>('tbody tr > td:last-child :is(button, a)')) {
      const r = action.getBoundingClientRect()
      if (r.width === 0) continue
      if (r.right > visible + 1 || r.left < box.left - 1)
        found.push(`action 「${text(action)}」 at x=${Math.round(r.left)}–${Math.round(r.right)}`)
    }
  }
  const canvas = document.createElement('canvas').getContext('2d')!
  for (const input of document.querySelectorAll<HTMLInputElement>('input[placeholder]')) {
    if (!input.offsetParent || input.closest('.ant-drawer, .ant-modal') || !input.placeholder) continue
    const style = getComputedStyle(input)
    canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
    const needs = canvas.measureText(input.placeholder).width
    if (needs > room + 1) found.push(`placeholder 「${input.placeholder}」 needs ${Math.round(needs)}px of ${room}px`)
  }
  return [...new Set(found)]
}

/** Opens a screen from the menu (no reload) and lists what it shows cut off. */
async function check(page: Page, path: string) {
  await page.locator(`.zx-console-sider a[href="${path}"]`).click()
  await page.waitForURL((url) => url.pathname === path)
  await page.waitForTimeout(200)
  await settled(page)
  // A list shows its rows (or that it has none), not the frame of its first load.
  if (await page.locator('.zx-console-content .ant-table-wrapper').count())
    await page
      .locator('.zx-console-content :is(.ant-table-row, .ant-table-placeholder)')
      .first()
      .waitFor({ timeout: 15_000 })
  await settled(page)
  return (await page.evaluate(cutOff)).map((p) => `${path}: ${p}`)
}

describe('console layout at 1280×800', () => {
  it(
    'shows every list screen whole: headers within reach, actions and placeholders in view',
    { timeout: 300_000 },
    async () => {
      const { page } = await consoleAs(await signInOperator())
      await page.goto('/admin')
      const found: string[] = []
      for (const item of Sections.flatMap((s) => s.items)) found.push(...(await check(page, item.path)))
      // The two screens the operators' review found cut off, to look at.
      found.push(...(await check(page, '/admin/catalogue/courses')))
      await shot(page, 'console-layout-courses-1280')
      await check(page, '/admin/sales/exchange-skus')
      await shot(page, 'console-layout-exchange-skus-1280')
      await check(page, '/admin/sales/refunds')
      await shot(page, 'console-layout-refunds-1280')
      // The widest filter bar: search, state, method and the labelled dates.
      await check(page, '/admin/sales/orders')
      await shot(page, 'console-layout-orders-1280')
      expect(found).toEqual([])
    },
  )
})

/** Form fields narrower than a few characters, or past the window's edge: an operator cannot read or reach them. */
function crampedFields(): string[] {
  const found: string[] = []
  const width = window.innerWidth
  for (const item of document.querySelectorAll<HTMLElement>('.zx-console-content .ant-form-item')) {
    if (!item.offsetParent) continue
    const label = (item.querySelector('.ant-form-item-label')?.textContent ?? '').trim() || 'a field'
    const control = item.querySelector<HTMLElement>('.ant-form-item-control-input-content')
    const r = (control ?? item).getBoundingClientRect()
    if (r.right > width + 1) found.push(`「${label}」 ends at x=${Math.round(r.right)}`)
    if (r.width < 80) found.push(`「${label}」 is ${Math.round(r.width)}px wide`)
  }
  return found
}

describe('console forms on a phone (390×844)', () => {
  it('gives the course form one column: every field whole and wide enough to use', async () => {
    const { page } = await consoleAs(await signInOperator(), { width: 390, height: 844 })
    await page.goto('/admin/catalogue/courses/new')
    await page.getByLabel('标题', { exact: true }).waitFor({ timeout: 20_000 })
    await settled(page)
    await shot(page, 'console-course-new-390')
    expect(await page.evaluate(crampedFields)).toEqual([])
  })
})

describe('console drawers on a phone (390×844)', () => {
  it('puts the pop-up editor’s phone preview under its form, within the width', async () => {
    const { page } = await consoleAs(await signInOperator(), { width: 390, height: 844 })
    await page.goto('/admin/engagement/overlays')
    await page.getByRole('button', { name: /新建/ }).first().click()
    const drawer = page.locator('.ant-drawer-body')
    await drawer.getByLabel('标题').waitFor({ timeout: 20_000 })
    await page.waitForTimeout(500) // the drawer's opening animation
    await shot(page, 'console-overlay-new-390')
    const layout = await drawer.evaluate((body) => {
      const form = body.querySelector('form')!.getBoundingClientRect()
      const preview = body.querySelector('figure')!.getBoundingClientRect()
      return { overflow: body.scrollWidth - body.clientWidth, formBottom: form.bottom, previewTop: preview.top }
    })
    expect(layout.overflow).toBe(0)
    expect(layout.previewTop).toBeGreaterThanOrEqual(layout.formBottom)
  })
})
