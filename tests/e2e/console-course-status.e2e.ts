import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import { call, signInOperator } from './support/commerce.ts'
import { consoleAs, settled } from './support/console.ts'

/**
 * The course editor's 下架 and 上架 buttons at 1280×800: each says what it did (已下架「…」, 已上架「…」), not
 * 已保存 as the 保存 button does; following a link away from unsaved changes, or the browser's back button, asks
 * first.
 */

/** antd spaces two-character Chinese button labels ("下 架"). */
const label = (text: string) => new RegExp(`^${[...text].join('\\s?')}$`)

/** An operator's token and a published course in a category of its own, made through the API. */
async function publishedCourse(name: string) {
  const token = await signInOperator()
  const suffix = String(Date.now()).slice(-6)
  const category = await call<{ id: number }>('POST', '/admin/categories', {
    token,
    body: { name: `${name} ${suffix}` },
  })
  const title = `${name}测试 ${suffix}`
  const course = await call<{ id: number }>('POST', '/admin/courses', {
    token,
    body: {
      type: 'series',
      title,
      cover_url: '/media/images/2026/cover.webp',
      category_id: category.data.id,
      price_fen: 100,
      status: 'published',
    },
  })
  expect(course.code, course.msg).toBe(200)
  return { token, title, course }
}

describe('course editor: withdrawing and publishing a course', () => {
  it('says 已下架 after 下架 and 已上架 after 上架', async () => {
    const { token, title, course } = await publishedCourse('上下架')
    const { page } = await consoleAs(token)
    await page.goto(`/admin/catalogue/courses/${course.data.id}`)
    await settled(page)

    await page.getByRole('button', { name: label('下架') }).click()
    await page.getByRole('button', { name: label('确认下架') }).click()
    await expect.poll(() => page.getByText(`已下架「${title}」`).isVisible(), { timeout: 10_000 }).toBe(true)
    expect(await page.getByText(`已保存「${title}」`).count()).toBe(0)
    await shot(page, 'console-course-withdrawn-1280')

    await page.getByRole('button', { name: label('上架') }).click()
    await page.getByRole('button', { name: label('确认上架') }).click()
    await expect.poll(() => page.getByText(`已上架「${title}」`).isVisible(), { timeout: 10_000 }).toBe(true)
  })

  it('asks before leaving a course with unsaved changes, and not once they are saved', async () => {
    const { token, title, course } = await publishedCourse('未保存')
    const { page } = await consoleAs(token)
    await page.goto(`/admin/catalogue/courses/${course.data.id}`)
    await settled(page)
    const back = page.getByRole('link', { name: '返回课程列表' })

    // Nothing changed: the list opens at once.
    await back.click()
    await page.waitForURL(/\/admin\/catalogue\/courses$/)
    await page.goBack()
    await page.waitForURL(/\/courses\/\d+$/)
    await settled(page)

    // A changed title: leaving asks, and 继续编辑 keeps the change on the page.
    await page.getByLabel('标题', { exact: true }).fill(`${title} 改`)
    await back.click()
    const ask = page.getByRole('dialog').filter({ hasText: '有未保存的修改' })
    await expect.poll(() => ask.isVisible(), { timeout: 10_000 }).toBe(true)
    await page.waitForTimeout(400) // the dialog's opening animation
    await shot(page, 'console-course-unsaved-1280')
    await ask.getByRole('button', { name: '继续编辑' }).click()
    expect(page.url()).toMatch(/\/courses\/\d+$/)
    expect(await page.getByLabel('标题', { exact: true }).inputValue()).toBe(`${title} 改`)

    // Saved: leaving no longer asks.
    await page.getByRole('button', { name: label('保存') }).click()
    await expect.poll(() => page.getByText(`已保存「${title} 改」`).isVisible(), { timeout: 10_000 }).toBe(true)
    await back.click()
    await page.waitForURL(/\/admin\/catalogue\/courses$/)
    expect(await page.getByText('有未保存的修改').count()).toBe(0)

    // The browser's back button asks too: 继续编辑 stays on the form with the change, 离开 goes back. (`history.back()`
    // moves as the button does; Playwright's goBack waits for a move that the dialog holds.)
    await page.getByRole('searchbox', { name: '搜索' }).fill(`${title} 改`)
    await page.getByRole('searchbox', { name: '搜索' }).press('Enter')
    await page.getByText(`${title} 改`, { exact: true }).click()
    await page.waitForURL(/\/courses\/\d+$/)
    await settled(page)
    await page.getByLabel('标题', { exact: true }).fill(`${title} 再改`)
    await page.evaluate(() => window.history.back())
    await expect.poll(() => ask.isVisible(), { timeout: 10_000 }).toBe(true)
    await page.waitForTimeout(400)
    expect(page.url()).toMatch(/\/courses\/\d+$/)
    await ask.getByRole('button', { name: '继续编辑' }).click()
    await expect.poll(() => ask.isVisible()).toBe(false)
    expect(page.url()).toMatch(/\/courses\/\d+$/)
    expect(await page.getByLabel('标题', { exact: true }).inputValue()).toBe(`${title} 再改`)
    await page.evaluate(() => window.history.back())
    await expect.poll(() => ask.isVisible(), { timeout: 10_000 }).toBe(true)
    await ask.getByRole('button', { name: label('离开') }).click()
    await page.waitForURL(/\/admin\/catalogue\/courses\?q=/)
    await expect.poll(() => page.getByText(`${title} 改`, { exact: true }).isVisible()).toBe(true)
  })
})
