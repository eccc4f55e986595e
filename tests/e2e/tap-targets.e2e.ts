import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import { apiData, courseByTitle, openDevice, signIn, type DeviceKind } from './support/commerce.ts'
import { tapHeight } from './support/layout.ts'

/**
 * What a thumb taps on a phone at 390×844 (issue 10 §1): a link drawn as a line of small text still has a target at
 * least the touch minimum high (--zx-touch-min, 44 px) while the text looks and sits as before, and two buttons one
 * above the other keep a gap between them. Found by a review in WeChat: the course page's category tag, the course
 * under the video on /v, the teacher on /li and 兑换记录 on /mine/redeem were 17–20 px high, and the programme of a
 * system course stacked 报名咨询 and 联系课程顾问 with no gap.
 */

/** The link's tap target (at least 44 px) and its own box (one line of small text, as drawn before). */
async function expectSmallLinkTappable(page: Page, link: Locator, name: string) {
  await expect.poll(() => link.isVisible(), { timeout: 15_000 }).toBe(true)
  await link.scrollIntoViewIfNeeded()
  await page.waitForTimeout(300)
  expect.soft(await tapHeight(link), name).toBeGreaterThanOrEqual(44)
  expect((await link.boundingBox())!.height, name).toBeLessThan(30)
}

describe.each<DeviceKind>(['phone', 'wechat'])('tap targets (%s)', (kind) => {
  it('small text links are a thumb high to tap and look as before', { timeout: 90_000 }, async () => {
    const token = await signIn()
    const { context, page } = await openDevice(kind, token)
    try {
      const course = await courseByTitle('Photoshop 零基础入门')
      await page.goto(`/course/${course.id}.html`)
      const tags = page.getByRole('list', { name: '课程标签' })
      await expectSmallLinkTappable(page, tags.getByRole('link'), 'category tag')
      // The tag keeps the height of the tags beside it.
      const [tag, level] = await Promise.all(
        [tags.getByRole('listitem').filter({ has: page.getByRole('link') }), tags.getByRole('listitem').nth(1)].map(
          async (l) => (await l.boundingBox())!.height,
        ),
      )
      expect(tag).toBe(level)
      await shot(page, `tap-targets-course-${kind}`)

      await page.goto(`/v/${course.chapters[0]!.videos[0]!.id}.html`)
      await expectSmallLinkTappable(
        page,
        page.locator('main').getByRole('link', { name: course.title, exact: true }),
        'course under the video',
      )
      await shot(page, `tap-targets-player-${kind}`)

      const lives = await apiData<{ list: { id: number; type: string; live_starts_at: string | null }[] }>(
        '/v2/course_list?limit=50',
      )
      const live = lives.list.find((c) => c.type === 'live' && c.live_starts_at !== null)!
      const teacher = (await apiData<{ teacher: { name: string } }>(`/course?id=${live.id}`)).teacher
      await page.goto(`/li/${live.id}.html`)
      await expectSmallLinkTappable(page, page.getByRole('link', { name: teacher.name, exact: true }), 'live teacher')
      await shot(page, `tap-targets-live-${kind}`)

      await page.goto('/mine/redeem')
      await expectSmallLinkTappable(page, page.getByRole('link', { name: '兑换记录', exact: true }), '兑换记录')
      await shot(page, `tap-targets-redeem-${kind}`)
    } finally {
      await context.close()
    }
  })

  it('keeps a gap between the two ways to enrol in a system course', { timeout: 60_000 }, async () => {
    const token = await signIn()
    const { context, page } = await openDevice(kind, token)
    try {
      const course = await courseByTitle('平面设计师系统班')
      await page.goto(`/course/systemCourse?id=${course.id}`)
      const enrol = page.getByRole('link', { name: '报名咨询 ›' })
      const consult = page.getByRole('link', { name: '联系课程顾问 ›' })
      await expect.poll(() => consult.isVisible(), { timeout: 15_000 }).toBe(true)
      const [above, below] = [(await enrol.boundingBox())!, (await consult.boundingBox())!]
      expect(below.y - (above.y + above.height)).toBeGreaterThanOrEqual(8)
      await consult.scrollIntoViewIfNeeded()
      await shot(page, `tap-targets-system-course-${kind}`)
    } finally {
      await context.close()
    }
  })
})
