import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { makeTestClip } from '#tests/support/clip.ts'
import { launchBrowser, shot, skipOverlays } from './support/browser.ts'
import { call, DESKTOP, grantStaff, openDevice, signIn, signInOperator } from './support/commerce.ts'

/**
 * The catalogue screens of the operator console (issue 13 §2, §4) at 1280×800: an operator creates a course with a
 * chapter and a lesson, uploads the lesson's video and watches it transcode, publishes the course, puts it in a new
 * home section, and a learner sees it on / and in search and plays the lesson's free part.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-console-catalogue-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const cover = path.resolve(import.meta.dirname, '../../public/demo/categories/painting.webp')

/** Waits until nothing is loading, so a screenshot shows the rows as an operator reads them. */
async function settled(page: Page) {
  await expect.poll(() => page.locator('.ant-spin-spinning, .ant-spin-blur').count(), { timeout: 10_000 }).toBe(0)
  await page.waitForTimeout(300) // antd's fade-in of the rows
}

/** antd spaces two-character Chinese button labels ("保 存"). */
const label = (text: string) => new RegExp(`^${[...text].join('\\s?')}$`)

async function pick(page: Page, field: string, option: string | RegExp) {
  await page.getByLabel(field, { exact: true }).click()
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click()
}

describe('catalogue screens of the operator console', () => {
  it(
    'an operator creates a course with a chapter and a video, publishes it, and a learner sees and plays it',
    { timeout: 360_000 },
    async () => {
      const admin = await signInOperator()
      const operator = await signIn(await grantStaff(admin, ['operator']))
      const browser = await launchBrowser()
      const context = await browser.newContext({ viewport: DESKTOP, locale: 'zh-CN', baseURL: inject('baseUrl') })
      await context.addInitScript((t) => {
        localStorage.setItem('zx_token', JSON.stringify({ token: t, expire: Date.now() + 3600_000 }))
      }, operator)
      const page = await context.newPage()
      page.on('pageerror', (err) => {
        throw err
      })
      const title = `控制台新课 ${Date.now() % 1_000_000}`

      // The course list: the menu's catalogue section, every course of the demo, paged.
      await page.goto('/admin')
      await page.getByRole('menuitem', { name: '课程' }).first().click()
      await page.waitForURL(/\/admin\/catalogue\/courses$/)
      await expect.poll(() => page.getByText(/共 \d+ 条/).isVisible(), { timeout: 10_000 }).toBe(true)
      await settled(page)
      await shot(page, 'console-courses-1280')

      // A new course: title, category, cover (uploaded), price typed in yuan; created as a draft.
      await page.getByRole('button', { name: '新建课程' }).click()
      await page.waitForURL(/\/courses\/new$/)
      await page.getByLabel('标题', { exact: true }).fill(title)
      await pick(page, '分类', /\//)
      await page.locator('input[type=file]').first().setInputFiles(cover)
      await expect
        .poll(() => page.getByRole('button', { name: '更换图片' }).isVisible(), { timeout: 15_000 })
        .toBe(true)
      await page.getByLabel('售价（元）').fill('99.5')
      await page.getByLabel('积分价').fill('990')
      await page.getByRole('button', { name: '创建课程' }).click()
      await page.waitForURL(/\/courses\/\d+$/, { timeout: 15_000 })
      const courseId = Number(/\/courses\/(\d+)$/.exec(page.url())![1])
      // The price typed in yuan went to the API in fen; a new course starts as a draft.
      const saved = await call<{ price_fen: number; points_price: number; status: string; cover_url: string }>(
        'GET',
        `/admin/courses/${courseId}`,
        { token: operator },
      )
      expect(saved.data).toMatchObject({ price_fen: 9950, points_price: 990, status: 'draft' })
      expect(saved.data.cover_url).toMatch(/\.webp$/)

      // A chapter with a lesson (its video is uploaded on the media screen: the lesson links there).
      await page.getByRole('button', { name: '添加章节' }).click()
      const chapterDialog = page.getByRole('dialog', { name: '添加章节' })
      await chapterDialog.getByLabel('章节标题').fill('第一章 准备')
      await chapterDialog.getByRole('button', { name: label('保存') }).click()
      await expect.poll(() => page.getByText('第 1 章 · 第一章 准备').isVisible(), { timeout: 10_000 }).toBe(true)
      await page.locator('.zx-console-chapter').getByText('添加课时').click()
      const lessonDialog = page.getByRole('dialog', { name: '添加课时' })
      await lessonDialog.getByLabel('课时标题').fill('认识软件界面')
      await lessonDialog.getByLabel('免费试看（秒）').fill('60')
      await lessonDialog.getByRole('button', { name: label('保存') }).click()
      const lesson = page.getByRole('row').filter({ hasText: '认识软件界面' })
      await expect.poll(() => lesson.isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await lesson.innerText()).toContain('前 60 秒')
      expect(await lesson.getByRole('link', { name: '去上传' }).getAttribute('href')).toMatch(
        /^\/admin\/media\?video=\d+$/,
      )
      await settled(page)
      await shot(page, 'console-course-editor-1280')

      // The lesson's video: its link opens the media screen on that video; upload (tus), transcode, come back.
      const clip = path.join(dir, 'lesson.mp4')
      makeTestClip(clip, 8, '640x360')
      const editorUrl = page.url()
      await lesson.getByRole('link', { name: '去上传' }).click()
      await page.waitForURL(/\/admin\/media\?video=\d+$/)
      const videoId = Number(/video=(\d+)$/.exec(page.url())![1])
      const media = page.getByRole('row').filter({ hasText: '认识软件界面' })
      await expect.poll(() => media.isVisible(), { timeout: 15_000 }).toBe(true)
      await media.getByRole('button', { name: /^上\s?传$/ }).click()
      const upload = page.getByRole('dialog', { name: /上传视频/ })
      await upload.locator('input[type="file"]').setInputFiles(clip)
      await expect.poll(() => upload.getByText(/上传完成/).isVisible(), { timeout: 60_000 }).toBe(true)
      await upload.getByRole('button', { name: /^完\s?成$/ }).click()
      await expect.poll(() => media.getByText('可播放').isVisible(), { timeout: 180_000, interval: 500 }).toBe(true)
      await page.goto(editorUrl)
      await expect.poll(() => lesson.isVisible(), { timeout: 10_000 }).toBe(true)

      // Publishing, confirmed by name.
      await page.getByRole('button', { name: label('上架') }).click()
      const publish = page.getByRole('dialog', { name: `上架「${title}」` })
      await publish.getByRole('button', { name: '确认上架' }).click()
      await expect
        .poll(() => page.locator('.zx-console-title-row .ant-tag').first().innerText(), { timeout: 10_000 })
        .toBe('已上架')

      // The home feed: a new published section of courses holding it.
      await page.getByRole('menuitem', { name: '首页栏目' }).click()
      await page.waitForURL(/\/admin\/storefront\/home/)
      await page.getByRole('button', { name: '添加栏目' }).click()
      const sectionDialog = page.getByRole('dialog', { name: '添加栏目' })
      await sectionDialog.getByLabel('标题', { exact: true }).fill('控制台新课')
      await sectionDialog.getByLabel('立即发布').click()
      await sectionDialog.getByRole('button', { name: label('保存') }).click()
      const section = page.getByRole('row').filter({ hasText: '控制台新课' })
      await section.getByText('管理内容').click()
      await page.getByRole('button', { name: '添加课程' }).click()
      const itemDialog = page.getByRole('dialog', { name: '添加课程' })
      await itemDialog.getByLabel('课程').fill(title)
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option')
        .filter({ hasText: `（${courseId}）` })
        .click()
      await itemDialog.getByRole('button', { name: label('保存') }).click()
      await expect.poll(() => page.getByRole('cell', { name: title }).isVisible(), { timeout: 10_000 }).toBe(true)
      await settled(page)
      await shot(page, 'console-home-items-1280')
      await page.keyboard.press('Escape')
      await expect.poll(() => page.locator('.ant-drawer-content').isVisible(), { timeout: 10_000 }).toBe(false)
      await settled(page)
      await shot(page, 'console-home-feed-1280')
      await context.close()

      // A learner sees it at once on / and finds it by search.
      const learnerToken = await signIn()
      const learner = await openDevice('phone', learnerToken)
      await skipOverlays(learner.context)
      await learner.page.goto('/')
      await expect.poll(() => learner.page.getByText(title).first().isVisible(), { timeout: 10_000 }).toBe(true)
      await learner.page.goto(`/searchCourse?keyword=${encodeURIComponent(title)}`)
      await expect
        .poll(
          () =>
            learner.page
              .getByText('认识软件界面')
              .or(learner.page.getByText(/控制台新课/))
              .first()
              .isVisible(),
          {
            timeout: 10_000,
          },
        )
        .toBe(true)
      await learner.context.close()
      // The lesson's free part plays for a learner who has not bought the course (its HLS, transcoded above).
      const play = await call<{ url: string }>('GET', `/video/play?vid=${videoId}`, { token: learnerToken })
      expect(play.code).toBe(200)
    },
  )

  it('a course renamed in the console shows at once on its public page, cached or not', async () => {
    const operator = await signIn(await grantStaff(await signInOperator(), ['operator']))
    const suffix = String(Date.now()).slice(-6)
    const category = await call<{ id: number }>('POST', '/admin/categories', {
      token: operator,
      body: { name: `改名 ${suffix}` },
    })
    const made = await call<{ id: number }>('POST', '/admin/courses', {
      token: operator,
      body: {
        type: 'series',
        title: `改名前 ${suffix}`,
        cover_url: '/media/images/2026/cover.webp',
        category_id: category.data.id,
        price_fen: 100,
        status: 'published',
      },
    })
    expect(made.code).toBe(200)
    const page = async () => (await fetch(`${inject('baseUrl')}/course/${made.data.id}.html`)).text()
    expect(await page()).toContain(`改名前 ${suffix}`) // now held by the page micro-cache for a few seconds
    const renamed = await call('PATCH', `/admin/courses/${made.data.id}`, {
      token: operator,
      body: { title: `改名后 ${suffix}` },
    })
    expect(renamed.code).toBe(200)
    expect(await page()).toContain(`改名后 ${suffix}`)
  })

  it('the other catalogue screens at 1280×800', { timeout: 90_000 }, async () => {
    const admin = await signInOperator()
    const browser = await launchBrowser()
    const context = await browser.newContext({ viewport: DESKTOP, locale: 'zh-CN', baseURL: inject('baseUrl') })
    await context.addInitScript((t) => {
      localStorage.setItem('zx_token', JSON.stringify({ token: t, expire: Date.now() + 3600_000 }))
    }, admin)
    const page = await context.newPage()
    page.on('pageerror', (err) => {
      throw err
    })
    for (const [url, name] of [
      ['/admin/catalogue/categories', 'categories'],
      ['/admin/catalogue/teachers', 'teachers'],
      ['/admin/catalogue/bundles', 'bundles'],
      ['/admin/catalogue/live', 'live'],
      ['/admin/storefront/hot-words', 'hot-words'],
    ] as const) {
      await page.goto(url)
      await expect.poll(() => page.getByRole('table').first().isVisible(), { timeout: 10_000 }).toBe(true)
      await expect.poll(() => page.locator('.ant-table-row').count(), { timeout: 10_000 }).toBeGreaterThan(0)
      await settled(page)
      await shot(page, `console-${name}-1280`)
    }
    // A bundle's form names its courses (their titles read by id).
    await page.goto('/admin/catalogue/bundles')
    await page.locator('.ant-table-row').first().getByText('编辑').click()
    const bundle = page.getByRole('dialog', { name: /编辑套餐/ })
    await expect
      .poll(() => bundle.locator('.ant-select-selection-item').first().innerText(), { timeout: 10_000 })
      .toMatch(/（\d+）$/)
    await settled(page)
    await shot(page, 'console-bundle-edit-1280')
    await page.keyboard.press('Escape')
    // A course's editor opened from the list, with its chapters and lessons.
    await page.goto('/admin/catalogue/courses?type=series&sort=id&order=asc')
    await page.locator('.ant-table-row').first().click()
    await expect.poll(() => page.getByText('章节与课时').isVisible(), { timeout: 10_000 }).toBe(true)
    await settled(page)
    await shot(page, 'console-course-form-1280')
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    await shot(page, 'console-course-demo-1280')
    await context.close()
  })
})
