import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { beijingDate } from '#shared/time.ts'
import { shot } from './support/browser.ts'
import { apiData, buyWithH5, call, courseByTitle, openDevice, signIn, type DeviceKind } from './support/commerce.ts'

/**
 * What a member owns, shown where it matters (issue 10 §1), at 390×844 in a phone browser and inside WeChat: a
 * bought course says 已购 (course page, lists, search, favourites) instead of its price and offers 开始学习 /
 * 继续学习; /ke1 shows the lessons started and the share watched; /mine shows the VIP state; no VIP up-sell over a
 * lesson the member may watch.
 */

const TITLE = 'Photoshop 零基础入门'

/** The row of a list or search screen that links to this course. */
const rowOf = (page: Page, courseId: number) => page.locator(`a[href="/course/${courseId}.html"]`).first()

describe.each<DeviceKind>(['phone', 'wechat'])('owned state (%s)', (kind) => {
  it('a bought course says 已购 everywhere; /ke1 and /mine show the real state', { timeout: 120_000 }, async () => {
    const token = await signIn()
    const course = await courseByTitle(TITLE)
    const lessons = course.chapters.flatMap((c) => c.videos)
    const paidLesson = lessons.find((v) => !v.is_free && v.free_seconds === 0)!
    expect((await call('POST', '/course/fav', { token, body: { course_id: course.id } })).code).toBe(200)

    const { context, page } = await openDevice(kind, token)
    // Before buying: the price, and a way to buy.
    await page.goto(`/course/${course.id}.html`)
    await expect.poll(() => page.getByRole('link', { name: /^立即购买 ¥/ }).isVisible(), { timeout: 15_000 }).toBe(true)
    expect(await page.getByTestId('course-owned').count()).toBe(0)

    await buyWithH5(page, token, '/pay/course', { course_id: course.id })

    // The course page: 已购 where the price was, and the way in.
    await page.goto(`/course/${course.id}.html`)
    await expect.poll(() => page.getByRole('link', { name: '开始学习' }).isVisible(), { timeout: 15_000 }).toBe(true)
    await expect.poll(() => page.getByTestId('course-owned').count(), { timeout: 10_000 }).toBe(2)
    expect(await page.getByRole('link', { name: /立即购买|单独购买/ }).count()).toBe(0)
    await shot(page, `owned-course-${kind}`)

    // A list, the search results and the favourites: the same course reads 已购, not ¥99.
    for (const path of [
      `/list/${(await apiData<{ category_id: number }>(`/course?id=${course.id}`)).category_id}`,
      `/searchCourse?keyword=${encodeURIComponent(TITLE)}`,
      '/myCollection',
    ]) {
      await page.goto(path)
      const row = rowOf(page, course.id)
      await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true)
      await expect.poll(() => row.innerText(), { timeout: 10_000 }).toContain('已购')
      expect(await row.innerText()).not.toContain('¥99')
      await shot(page, `owned-${path.split(/[/?]/)[1]}-${kind}`)
    }

    // A lesson of the bought course: no "开通 VIP" card pops up over it (the demo's VIP card shows at 4 s).
    await page.goto(`/v/${paidLesson.id}.html`)
    const video = page.getByTestId('player-video')
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
      .toBeGreaterThan(0)
    await page.evaluate(() => {
      const v = document.querySelector('video')!
      v.muted = true
      return v.play()
    })
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
      .toBeGreaterThan(5)
    expect(await page.getByTestId('player-popup').count()).toBe(0)
    expect(await page.getByText(/开通 VIP/).count()).toBe(0)

    // Partly watched: /ke1 shows one lesson under way and a share above 0%, not "0/N" and 0%.
    const saved = await call<{ position: number }>('POST', '/update_play_data', {
      token,
      body: { vid: paidLesson.id, position: Math.floor(paidLesson.free_seconds + 8) },
    })
    expect(saved.code).toBe(200)
    await page.goto('/ke1')
    const item = page.getByRole('listitem').filter({ hasText: TITLE })
    await expect.poll(() => item.isVisible(), { timeout: 15_000 }).toBe(true)
    expect(await item.getByTestId('album-lessons').innerText()).toMatch(/学完 \d+\/\d+ 节 · 1 节在学/)
    expect(Number(await item.getByRole('progressbar').getAttribute('aria-valuenow'))).toBeGreaterThan(0)
    await shot(page, `owned-ke1-${kind}`)

    // /mine: the VIP state (none yet: an offer to open one).
    await page.goto('/mine')
    await expect.poll(() => page.getByTestId('mine-vip').isVisible(), { timeout: 15_000 }).toBe(true)
    expect(await page.getByTestId('mine-vip').innerText()).toContain('开通 VIP 会员')
    await context.close()
  })

  it('/mine shows a running VIP and its end date', { timeout: 90_000 }, async () => {
    const token = await signIn()
    const plans = await apiData<{ plans: { id: number; name: string }[] }>('/v2/vip', token)
    const { context, page } = await openDevice(kind, token)
    await buyWithH5(page, token, '/pay/vip', { plan_id: plans.plans[0]!.id })
    const after = await apiData<{ membership: { expires_at: string } }>('/v2/vip', token)
    const day = beijingDate(new Date(after.membership.expires_at))
    await page.goto('/mine')
    const card = page.getByTestId('mine-vip')
    await expect.poll(() => card.isVisible(), { timeout: 15_000 }).toBe(true)
    expect(await card.innerText()).toContain(`有效期至 ${day}`)
    await shot(page, `owned-mine-vip-${kind}`)
    await context.close()
  })
})
