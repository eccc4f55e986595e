import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { makeTestClip } from '#tests/support/clip.ts'
import { shot } from './support/browser.ts'
import { call, grantStaff, signIn, signInOperator } from './support/commerce.ts'
import { consoleAs, settled } from './support/console.ts'

/**
 * The console's 媒体 screen (issue 13 §2 Media) at 1280×800 and on a tablet (820×1180): an operator uploads a
 * lesson's video (tus, with a progress bar), watches each rendition transcode, and previews the HLS; a learner
 * without the course is still refused the same video.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-console-media-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** A POST that must succeed, as the operator. */
async function made<T>(token: string, apiPath: string, body: object) {
  const res = await call<T>('POST', apiPath, { token, body })
  if (res.code !== 200) throw new Error(`POST ${apiPath}: ${res.code} ${res.msg}`)
  return res.data
}

/** An operator and a new course's lesson, made through the API. */
async function operatorWithLesson(title: string) {
  const admin = await signInOperator()
  const operator = await signIn(await grantStaff(admin, ['operator']))
  const suffix = String(Date.now()).slice(-5)
  const category = await made<{ id: number }>(operator, '/admin/categories', { name: `调色 ${suffix}` })
  const course = await made<{ id: number }>(operator, '/admin/courses', {
    type: 'series',
    title: `达芬奇调色实战 ${suffix}`,
    cover_url: '/media/images/2026/cover.webp',
    category_id: category.id,
    price_fen: 9900,
    status: 'published',
  })
  const chapter = await made<{ id: number }>(operator, '/admin/chapters', {
    course_id: course.id,
    title: '第一章 认识调色',
  })
  const lesson = await made<{ id: number }>(operator, '/admin/videos', {
    course_id: course.id,
    chapter_id: chapter.id,
    title,
  })
  return { operator, course, lesson }
}

describe('media in the operator console', () => {
  it(
    'an operator uploads a lesson video, watches each rendition transcode, and previews it',
    { timeout: 300_000 },
    async () => {
      const { operator, course, lesson } = await operatorWithLesson('一级调色入门')
      // 30 s of 720p: long enough to see it transcode, in two renditions (360p and 720p).
      const clip = path.join(dir, 'lesson-1.mp4')
      makeTestClip(clip, 30, '1280x720')

      const { context, page } = await consoleAs(operator)
      await page.goto(`/admin/media?course_id=${course.id}`)
      const row = page.getByRole('row').filter({ hasText: '一级调色入门' })
      await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true)
      expect(await row.innerText()).toContain('未上传')
      expect(await row.innerText()).toContain('第一章 认识调色')
      await settled(page)
      await page.waitForTimeout(300)
      await shot(page, 'console-media-1280')

      // Upload through tus: the progress bar runs to 100% and the server queues the transcoding.
      await row.getByRole('button', { name: /^上\s?传$/ }).click()
      const dialog = page.getByRole('dialog', { name: /上传视频/ })
      await dialog.locator('input[type="file"]').setInputFiles(clip)
      await expect.poll(() => dialog.getByText(/上传完成/).isVisible(), { timeout: 60_000 }).toBe(true)
      await shot(page, 'console-media-uploaded-1280')
      await dialog.getByRole('button', { name: /^完\s?成$/ }).click()

      // The list polls: each rendition's progress while it runs, then both renditions ready.
      let sawRenditions = false
      await expect
        .poll(
          async () => {
            // Both renditions' bars; the screenshot keeps the last moment before it is ready.
            if (
              (await row.getByLabel('720p 转码进度').isVisible()) &&
              (await row.getByLabel('360p 转码进度').isVisible())
            ) {
              sawRenditions = true
              await shot(page, 'console-media-transcoding-1280')
            }
            return row.getByText('可播放').isVisible()
          },
          { timeout: 180_000, interval: 250 },
        )
        .toBe(true)
      expect(sawRenditions).toBe(true)
      expect(await row.getByText('360p ✓').isVisible()).toBe(true)
      expect(await row.getByText('720p ✓').isVisible()).toBe(true)
      await settled(page)
      await shot(page, 'console-media-ready-1280')

      // Preview: the signed HLS plays in the browser (staff preview, decided by the access function).
      await row.getByRole('button', { name: /^预\s?览$/ }).click()
      const preview = page.getByRole('dialog', { name: /预览/ })
      const video = preview.locator('video')
      await expect.poll(() => video.isVisible(), { timeout: 15_000 }).toBe(true)
      await expect
        .poll(
          () =>
            video.evaluate((v: HTMLVideoElement) => {
              v.muted = true
              if (v.paused) void v.play().catch(() => undefined)
              return v.currentTime
            }),
          { timeout: 30_000 },
        )
        .toBeGreaterThan(1.5)
      await shot(page, 'console-media-preview-1280')
      await context.close()

      // A learner without the course is refused the same video.
      const learner = await signIn()
      expect((await call('GET', `/video/play?vid=${lesson.id}`, { token: learner })).code).toBe(474)

      // The catalogue's lesson link on a tablet: one video, every column and its actions on screen.
      const tablet = await consoleAs(operator, { width: 820, height: 1180 })
      await tablet.page.goto(`/admin/media?video=${lesson.id}`)
      await expect
        .poll(() => tablet.page.getByText(`只显示视频 #${lesson.id}`).isVisible(), { timeout: 15_000 })
        .toBe(true)
      const only = tablet.page.getByRole('row').filter({ hasText: '一级调色入门' })
      await expect.poll(() => only.isVisible(), { timeout: 15_000 }).toBe(true)
      await settled(tablet.page)
      await tablet.page.waitForTimeout(300)
      await shot(tablet.page, 'console-media-820')
      const box = await only.getByRole('button', { name: /^预\s?览$/ }).boundingBox()
      expect(box).not.toBeNull()
      expect(box!.x + box!.width).toBeLessThanOrEqual(820)
      expect(await tablet.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(820)
      await tablet.context.close()
    },
  )

  it('resumes an upload the network cut off, after the page is reloaded', { timeout: 180_000 }, async () => {
    const { operator, course } = await operatorWithLesson('二级调色')
    // 17 MB (lossless noise): three tus chunks of at most 8 MiB.
    const big = path.join(dir, 'big.mp4')
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=4:size=640x360:rate=15,noise=alls=60:allf=t'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-pix_fmt', 'yuv420p', big],
    ])
    const { context, page } = await consoleAs(operator)
    let created = 0
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/admin/uploads') created++
    })
    // The network drops after the first chunk: every later PATCH fails.
    let patches = 0
    await page.route('**/api/admin/uploads/*', (route) =>
      route.request().method() === 'PATCH' && ++patches > 1 ? route.abort('internetdisconnected') : route.continue(),
    )
    await page.goto(`/admin/media?course_id=${course.id}`)
    const row = page.getByRole('row').filter({ hasText: '二级调色' })
    await row.getByRole('button', { name: /^上\s?传$/ }).click()
    const dialog = page.getByRole('dialog', { name: /上传视频/ })
    await dialog.locator('input[type="file"]').setInputFiles(big)
    // The first chunk arrives; the client retries the next one, then says the network dropped.
    await expect.poll(() => dialog.getByText(/^8\.0 MB \//).isVisible(), { timeout: 30_000 }).toBe(true)
    await expect.poll(() => dialog.getByText(/网络中断/).isVisible(), { timeout: 60_000 }).toBe(true)
    await shot(page, 'console-media-interrupted-1280')
    await dialog
      .locator('.ant-modal-footer')
      .getByRole('button', { name: /^关\s?闭$/ })
      .click()

    // Back online, the tab reloaded: the same file continues from where the server stopped.
    await page.unrouteAll()
    await page.reload()
    await row.getByRole('button', { name: /^上\s?传$/ }).click()
    await dialog.locator('input[type="file"]').setInputFiles(big)
    await expect.poll(() => dialog.getByText(/从上次中断处继续/).isVisible(), { timeout: 10_000 }).toBe(true)
    await expect.poll(() => dialog.getByText(/上传完成/).isVisible(), { timeout: 60_000 }).toBe(true)
    await shot(page, 'console-media-resumed-1280')
    expect(created).toBe(1)
    await dialog.getByRole('button', { name: /^完\s?成$/ }).click()
    await expect
      .poll(
        () =>
          row
            .getByText(/排队中|转码中|可播放/)
            .first()
            .isVisible(),
        { timeout: 15_000 },
      )
      .toBe(true)
    await context.close()
  })
})
