import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import { apiData, courseByTitle, signInOperator } from './support/commerce.ts'
import { consoleAs, settled } from './support/console.ts'

/**
 * The console's player popups (issue 13 §2 Engagement) at 1280×800: an operator adds a popup to a course with its
 * preview as the player draws it, and the player's list has it at once. The side menu stays in view on a long page,
 * at 1280×800 and on a tablet (820×1180, where the header with the menu button does).
 */

const TABLET = { width: 820, height: 1180 }

describe('the console: player popups and the menu on long pages', () => {
  it('an operator adds a player popup, previewed as the player shows it; the player gets it', async () => {
    const operator = await signInOperator()
    const course = await courseByTitle('10 分钟掌握 PS 高频快捷键')
    const lesson = course.chapters[0]!.videos[0]!
    const { context, page } = await consoleAs(operator)
    await page.goto('/admin/engagement/popups')
    await expect.poll(() => page.getByRole('table').isVisible(), { timeout: 10_000 }).toBe(true)
    await page.getByRole('button', { name: '新建弹窗' }).click()
    const dialog = page.getByRole('dialog', { name: '新建播放器弹窗' })
    await dialog.getByLabel('课程或视频 ID').fill(String(course.id))
    await dialog.getByLabel('第几秒弹出').fill('3')
    await dialog.getByLabel('标题').fill('领取 PS 快捷键卡片')
    await dialog.getByLabel(/内容/).fill('打印出来贴在桌边，一周记住 30 个快捷键。')
    await dialog.getByLabel(/打开/).fill('javascript:alert(1)')
    // The form says what is wrong with the same message as the API.
    await expect.poll(() => dialog.getByText('链接须以 / 或 http(s):// 开头').isVisible()).toBe(true)
    await dialog.getByLabel(/打开/).fill('/customerG')
    // The preview is the player's own card over a 16:9 video, inside a 390-wide phone.
    const card = page.locator('.zx-console-phone-screen').getByTestId('player-popup')
    await expect.poll(() => card.innerText().catch(() => '')).toContain('领取 PS 快捷键卡片')
    expect(await card.getByRole('button', { name: '查看' }).count()).toBe(1)
    await shot(page, 'console-popup-preview-1280')
    await dialog.getByRole('button', { name: /保\s*存/ }).click()
    await expect
      .poll(() => page.getByText('已保存弹窗「领取 PS 快捷键卡片」').isVisible(), { timeout: 10_000 })
      .toBe(true)
    const row = page.getByRole('row').filter({ hasText: '领取 PS 快捷键卡片' })
    await expect.poll(() => row.isVisible()).toBe(true)
    expect(await row.innerText()).toContain(course.title)
    await settled(page)
    await shot(page, 'console-popups-1280')
    await context.close()

    const { list } = await apiData<{ list: { title: string; at_second: number; link: string }[] }>(
      `/popup/player/v2?vid=${lesson.id}`,
    )
    expect(list).toContainEqual(
      expect.objectContaining({ title: '领取 PS 快捷键卡片', at_second: 3, link: '/customerG' }),
    )
  })

  it('keeps the menu in view on a long page, at 1280×800 and on a tablet', async () => {
    const operator = await signInOperator()
    const desktop = await consoleAs(operator)
    const { page } = desktop
    // The course list at 100 rows a page is far taller than the window.
    await page.goto('/admin/catalogue/courses?page_size=100')
    await expect.poll(() => page.getByRole('row').count(), { timeout: 15_000 }).toBeGreaterThan(30)
    await settled(page)
    const tall = await page.evaluate(() => document.documentElement.scrollHeight)
    expect(tall).toBeGreaterThan(2 * 800)
    await page.mouse.move(700, 400)
    await page.mouse.wheel(0, tall)
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(800)
    const menu = page.locator('.zx-console-sider')
    const box = await menu.boundingBox()
    expect(box).toMatchObject({ y: 0, height: 800 })
    // The last item of the menu can be reached within the menu itself.
    const last = menu.getByRole('menuitem', { name: '操作日志' })
    await last.scrollIntoViewIfNeeded()
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(800)
    await expect.poll(() => last.isVisible()).toBe(true)
    await shot(page, 'console-menu-sticky-1280')
    await desktop.context.close()

    const tablet = await consoleAs(operator, TABLET)
    await tablet.page.goto('/admin/catalogue/courses?page_size=100')
    await expect.poll(() => tablet.page.getByRole('row').count(), { timeout: 15_000 }).toBeGreaterThan(30)
    await settled(tablet.page)
    await tablet.page.mouse.move(400, 600)
    await tablet.page.mouse.wheel(0, 5000)
    await expect.poll(() => tablet.page.evaluate(() => window.scrollY)).toBeGreaterThan(1180)
    // The header, with the menu button, stays at the top; the menu opens over the page from there.
    const open = tablet.page.getByRole('button', { name: '打开菜单' })
    expect((await open.boundingBox())!.y).toBeLessThan(64)
    await shot(tablet.page, 'console-header-sticky-820')
    await open.click()
    await expect.poll(() => tablet.page.getByRole('menuitem', { name: '播放器弹窗' }).isVisible()).toBe(true)
    await tablet.page.waitForTimeout(500)
    await shot(tablet.page, 'console-menu-sticky-820')
    expect(await tablet.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(820)
    await tablet.context.close()
  })
})
