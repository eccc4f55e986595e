import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { phone, shot, skipOverlays } from './support/browser.ts'

// Overlays appear on the home and category pages (spec 9), and the console journey adds one for every page while
// these run: these journeys are about browsing, so each skips the overlays (skipOverlays) before its first page.

/** No element sticks out sideways at this width (a 360 px phone shows the same layout narrower). */
async function expectNoHorizontalOverflow(page: Page) {
  const wide = await page.evaluate(() => {
    const limit = document.documentElement.clientWidth
    if (document.documentElement.scrollWidth <= limit) return []
    return [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > limit + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName}.${el.className} right=${Math.round(el.getBoundingClientRect().right)}`)
  })
  expect(wide, page.url()).toEqual([])
}

describe('a newcomer browses the catalogue', () => {
  it('goes from home to a category to a course and sees its title, price and chapters', async () => {
    const { page, context } = await phone()
    await skipOverlays(page.context())
    // Hydration mismatches and failed requests show up as console errors.
    const consoleErrors: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${m.text()} ${m.location().url}`)
    })
    page.on('response', (r) => {
      if (r.status() >= 400) consoleErrors.push(`${r.status()} ${r.url()}`)
    })

    await page.goto('/')
    await expect.poll(() => page.getByRole('heading', { name: '新课上架' }).isVisible()).toBe(true)
    await expect.poll(() => page.getByRole('heading', { name: '热门推荐' }).count()).toBe(1)
    await expectNoHorizontalOverflow(page)
    await shot(page, 'browse-home')

    // The category shortcut opens the category tab with that area selected.
    await page.getByRole('navigation', { name: '课程分类' }).getByRole('link', { name: '绘画插画' }).click()
    await page.waitForURL(/\/boutique\?cate=\d+$/)
    await expect.poll(() => page.locator('[aria-current="page"]', { hasText: '绘画插画' }).count()).toBe(1)
    await expect.poll(() => page.getByText('Procreate 板绘零基础').isVisible()).toBe(true)
    await page.getByRole('link', { name: '水彩', exact: true }).click()
    await expect.poll(() => page.getByText('水彩花卉入门').isVisible()).toBe(true)
    await expect.poll(() => page.getByText('Procreate 板绘零基础').count()).toBe(0)
    await expectNoHorizontalOverflow(page)
    await shot(page, 'browse-boutique')

    await page.getByText('水彩花卉入门').click()
    await page.waitForURL(/\/course\/\d+\.html$/)
    await expect.poll(() => page.getByRole('heading', { level: 1, name: '水彩花卉入门' }).isVisible()).toBe(true)
    expect(await page.title()).toBe('水彩花卉入门 - 自学')
    await expect.poll(() => page.getByRole('heading', { name: '课程目录' }).count()).toBe(1)
    expect(await page.getByText('工具与控水').count()).toBe(1)
    // The bar's 试看 comes once GET /api/course/access answered.
    await expect.poll(() => page.getByText('试看', { exact: true }).count()).toBeGreaterThan(0)
    // A VIP-free course: VIP opens it, and it can be bought on its own too.
    await expect.poll(() => page.getByRole('link', { name: 'VIP 免费学' }).isVisible()).toBe(true)
    expect(await page.getByRole('link', { name: /^单独购买 ¥\d/ }).getAttribute('href')).toMatch(
      /^\/course\/coursePurchase\?course_id=\d+$/,
    )
    // Free lessons say 免费; previews say how long they play, as the player does.
    expect(await page.getByText('免费', { exact: true }).count()).toBeGreaterThan(0)
    expect(await page.getByText(/^试看 \d+ (秒|分钟)$/).count()).toBeGreaterThan(0)
    await expectNoHorizontalOverflow(page)
    await shot(page, 'browse-course')
    await page.getByRole('heading', { name: '讲师' }).scrollIntoViewIfNeeded()
    await shot(page, 'browse-course-teacher')

    await page.getByRole('link', { name: /赵木/ }).click()
    await page.waitForURL(/\/teacher\/\d+$/)
    await expect.poll(() => page.getByRole('heading', { level: 1, name: '赵木' }).isVisible()).toBe(true)
    expect(await page.getByText('素描头像完整课').count()).toBe(1)
    await expectNoHorizontalOverflow(page)
    await shot(page, 'browse-teacher')
    // The favicon belongs to the app shell; everything this journey loads must succeed.
    expect(consoleErrors.filter((e) => !e.includes('/favicon.ico'))).toEqual([])
    await context.close()
  })

  it('serves the course page’s title, cover and price in the HTML, without JavaScript', async () => {
    const { baseUrl } = await phone()
    const list = (await (await fetch(`${baseUrl}/api/v2/course_list?sort=price_desc&limit=1`)).json()) as {
      data: { list: { id: number; title: string }[] }
    }
    const course = list.data.list[0]!
    const html = await (await fetch(`${baseUrl}/course/${course.id}.html`)).text()
    expect(html).toContain(`<title>${course.title} - 自学</title>`)
    expect(html).toMatch(/<img[^>]+src="\/demo\/courses\/[\w-]+\.webp"/)
    // The price as one text node (course-price.tsx, detail.tsx): no React separator comment inside it.
    expect(html).toMatch(/¥\d/)
    const same = await fetch(`${baseUrl}/course/${course.id}`)
    expect(same.status).toBe(200)
    expect((await fetch(`${baseUrl}/course/999999.html`)).status).toBe(404)
    expect((await fetch(`${baseUrl}/course/abc.html`)).status).toBe(404)
  })

  it('shows a free system course honestly and lists its courses in order', async () => {
    const { page, context } = await phone()
    await skipOverlays(context)
    await page.goto('/ke?type=system')
    await expect.poll(() => page.getByText('平面设计师系统班').isVisible()).toBe(true)
    await page.getByText('平面设计师系统班').click()
    await page.waitForURL(/\/course\/\d+\.html$/)
    await expect.poll(() => page.getByRole('heading', { name: /包含课程/ }).isVisible()).toBe(true)
    const parts = page.locator('#parts li')
    expect(await parts.count()).toBe(4)
    expect(await parts.first().innerText()).toContain('Photoshop 零基础入门')
    await shot(page, 'browse-system-course')

    await page.goto('/ke')
    await page.getByRole('link', { name: '价格从低到高' }).click()
    await page.waitForURL(/sort=price_asc/)
    await page
      .getByRole('link', { name: /10 分钟掌握 PS 高频快捷键|Excel 一键美化表格|10 分钟剪出一条旅行 Vlog/ })
      .first()
      .click()
    await page.waitForURL(/\/course\/\d+\.html$/)
    // A free course can be watched at once (issue 3): the bar leads to its first lesson.
    await expect
      .poll(() => page.getByRole('link', { name: '开始学习' }).getAttribute('href'))
      .toMatch(/^\/v\/\d+\.html$/)
    await context.close()
  })

  it('lists all courses with filters and loads more with the cursor', async () => {
    const { page, context } = await phone()
    await skipOverlays(context)
    await page.goto('/ke')
    await expect.poll(() => page.locator('main ul > li').count()).toBe(20)
    await shot(page, 'browse-ke')
    // "Load more" is a script button: wait until the page has hydrated.
    await page.waitForLoadState('networkidle')
    await page.getByRole('button', { name: '加载更多' }).click()
    await expect.poll(() => page.locator('main ul > li').count()).toBeGreaterThan(20)
    // Journeys running alongside publish courses of their own: load until the list says it has no more.
    for (let i = 0; i < 10 && !(await page.getByText('没有更多了').isVisible()); i++) {
      const shown = await page.locator('main ul > li').count()
      await page.getByRole('button', { name: '加载更多' }).click()
      await expect.poll(() => page.locator('main ul > li').count()).toBeGreaterThan(shown)
    }
    await expect.poll(() => page.getByText('没有更多了').isVisible()).toBe(true)
    const titles = await page.locator('main ul > li').allInnerTexts()
    expect(new Set(titles).size).toBe(titles.length)

    await page.getByRole('link', { name: '直播', exact: true }).click()
    await page.waitForURL(/type=live/)
    await expect.poll(() => page.locator('main ul > li').count()).toBe(4)
    await expectNoHorizontalOverflow(page)
    await context.close()
  })

  it('opens a category list, the alternate home and the teachers page', async () => {
    const { page, context } = await phone()
    await skipOverlays(context)
    // The first category of a fresh demo database is 软件 (id 1).
    await page.goto('/list/1')
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('软件')
    await shot(page, 'browse-list')
    await page.goto('/index1')
    await expect.poll(() => page.getByRole('heading', { name: '精品课程' }).isVisible()).toBe(true)
    await shot(page, 'browse-index1')
    await page.goto('/teacher')
    await expect.poll(() => page.getByRole('link', { name: /林晓/ }).isVisible()).toBe(true)
    expect((await page.goto('/list/99999'))?.status()).toBe(404)
    expect((await page.goto('/teacher/99999'))?.status()).toBe(404)
    await context.close()
  })

  it('reads well on a 360 px phone: nothing overflows sideways', async () => {
    const { page, context, baseUrl } = await phone()
    await skipOverlays(page.context())
    await page.setViewportSize({ width: 360, height: 780 })
    const list = (await (await fetch(`${baseUrl}/api/v2/course_list?type=system&limit=1`)).json()) as {
      data: { list: { id: number }[] }
    }
    const systemId = list.data.list[0]!.id
    for (const path of [
      '/',
      '/index1',
      '/boutique',
      '/ke',
      '/list/1',
      `/course/${systemId}.html`,
      '/teacher',
      '/teacher/1',
    ]) {
      const res = await page.goto(path)
      expect(res?.status(), path).toBe(200)
      await expectNoHorizontalOverflow(page)
    }
    await page.goto(`/course/${systemId}.html`)
    await shot(page, 'browse-course-360')
    await context.close()
  })
})
