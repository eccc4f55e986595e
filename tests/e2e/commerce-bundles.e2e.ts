import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import {
  answerCashier,
  apiData,
  call,
  courseByTitle,
  expectPaid,
  openDevice,
  payOnCheckout,
  playableUntil,
  previewLesson,
  signIn,
} from './support/commerce.ts'

/**
 * Buying several courses at once and with points (issue 4): a course bundle (/foryou/{id}), favourite courses
 * bought together from /myCollection, and a course exchanged for points (/course/creditPay/{id}).
 */

interface BundleCard {
  id: number
  title: string
  course_count: number
}

describe('bundles, favourites together and points', () => {
  it(
    'buys a bundle at the price of the courses not owned yet; every course then plays',
    { timeout: 120_000 },
    async () => {
      const token = await signIn()
      const { context, page } = await openDevice('phone', token)
      try {
        const bundles = (await apiData<{ list: BundleCard[] }>('/foryou/bundles')).list
        const office = bundles.find((b) => b.title === '办公效率全家桶')!
        const detail = await apiData<{ courses: { id: number; title: string }[] }>(`/foryou/bundles/${office.id}`)
        // The member owns one of its courses already (bought alone): the bundle costs less for them.
        const first = await courseByTitle(detail.courses[0]!.title)
        const single = await call<{ h5_url: string; order_no: string }>('POST', '/pay/course', {
          token,
          body: { course_id: first.id, pay_method: 'wechat_h5' },
        })
        await page.goto(single.data.h5_url)
        await answerCashier(page)
        await expectPaid(page)

        await page.goto('/foryou')
        await expect
          .poll(() => page.getByRole('link', { name: /办公效率全家桶/ }).isVisible(), { timeout: 10_000 })
          .toBe(true)
        await shot(page, 'bundle-index')
        await page.getByRole('link', { name: /办公效率全家桶/ }).click()
        await page.waitForURL(new RegExp(`/foryou/${office.id}$`))
        await expect.poll(() => page.getByText(/你已拥有其中 1 门课程/).isVisible(), { timeout: 10_000 }).toBe(true)
        expect(await page.getByText('已拥有', { exact: true }).count()).toBe(1)
        await shot(page, 'bundle-detail')
        const price = await apiData<{ amount_fen: number }>(`/foryou/pay/preview?id=${office.id}`, token)
        await payOnCheckout(page)
        await answerCashier(page)
        const orderNo = await expectPaid(page)
        const order = await apiData<{ kind: string; amount_fen: number; items: { course_id: number }[] }>(
          `/orders/${orderNo}`,
          token,
        )
        expect(order).toMatchObject({ kind: 'bundle', amount_fen: price.amount_fen })
        expect(order.items).toHaveLength(detail.courses.length - 1)

        for (const c of detail.courses.slice(1)) {
          const course = await courseByTitle(c.title)
          expect(await playableUntil(token, previewLesson(course).id)).toBeNull()
        }
        // Listed with the course orders; the bundle page now says everything is owned.
        await page.goto('/order')
        await expect
          .poll(() => page.getByRole('link', { name: /套餐 · 办公效率全家桶/ }).isVisible(), { timeout: 10_000 })
          .toBe(true)
        await page.goto(`/foryou/${office.id}`)
        await expect
          .poll(() => page.getByText('套餐里的课程你都已拥有，直接去学习吧。').isVisible(), { timeout: 10_000 })
          .toBe(true)
      } finally {
        await context.close()
      }
    },
  )

  it('buys favourite courses together from /myCollection', { timeout: 120_000 }, async () => {
    const token = await signIn()
    const a = await courseByTitle('水彩花卉入门')
    const b = await courseByTitle('素描头像完整课')
    for (const c of [a, b])
      expect((await call('POST', '/course/fav', { token, body: { course_id: c.id } })).code).toBe(200)
    const { context, page } = await openDevice('phone', token)
    try {
      await page.goto('/myCollection')
      const buy = page.getByRole('button', { name: '一起购买' })
      await expect.poll(() => buy.isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await page.getByTestId('fav-calc').textContent()).toContain('2 门未购课程')
      await buy.click()
      const sheet = page.getByRole('dialog', { name: '确认订单' })
      await expect.poll(() => sheet.getByText(a.title).isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await sheet.getByText(b.title).isVisible()).toBe(true)
      await shot(page, 'favourites-checkout')
      await payOnCheckout(page)
      await answerCashier(page)
      const orderNo = await expectPaid(page)
      expect((await apiData<{ kind: string; items: unknown[] }>(`/orders/${orderNo}`, token)).items).toHaveLength(2)
      for (const c of [a, b]) expect(await playableUntil(token, previewLesson(c).id)).toBeNull()
      await page.goto('/myCollection')
      await expect.poll(() => page.getByText(a.title).isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await page.getByRole('button', { name: '一起购买' }).count()).toBe(0)
    } finally {
      await context.close()
    }
  })

  it(
    'exchanges a course for points: the demo purchaser has 3,000 points, the course costs 2,000',
    { timeout: 120_000 },
    async () => {
      const token = await signIn('13700137000')
      const course = await courseByTitle('Word 长文档排版：论文与标书')
      const price = (await apiData<{ points_price: number | null }>(`/course?id=${course.id}`)).points_price!
      expect(price).toBe(2000)
      const { context, page } = await openDevice('phone', token)
      try {
        const before = (await apiData<{ balance: number }>('/points', token)).balance
        expect(before).toBeGreaterThanOrEqual(price)
        expect(await playableUntil(token, previewLesson(course).id)).not.toBeNull()
        await page.goto(`/course/${course.id}.html`)
        // The bar settles once the member's access is known (the server render is anonymous).
        await page.waitForLoadState('networkidle')
        const link = page.getByRole('link', { name: `或 ${price} 积分兑换` })
        await expect.poll(() => link.isVisible(), { timeout: 10_000 }).toBe(true)
        // The course is also sold in a bundle: the page says so under the price.
        expect(await page.getByRole('link', { name: /办公效率全家桶/ }).isVisible()).toBe(true)
        await shot(page, 'course-points-and-bundle')
        await link.click()
        await page.waitForURL(new RegExp(`/course/creditPay/${course.id}$`))
        await expect.poll(() => page.getByText(`${before} 积分`).isVisible(), { timeout: 10_000 }).toBe(true)
        await shot(page, 'credit-pay')
        await page.getByLabel(/我已阅读并同意/).check()
        await page.getByRole('button', { name: '确认兑换' }).click()
        const orderNo = await expectPaid(page)
        await expect.poll(() => page.getByText('兑换成功').first().isVisible(), { timeout: 10_000 }).toBe(true)
        expect(await apiData<{ pay_method: string; points_used: number }>(`/orders/${orderNo}`, token)).toMatchObject({
          pay_method: 'points',
          points_used: price,
        })
        expect((await apiData<{ balance: number }>('/points', token)).balance).toBe(before - price)
        expect(await playableUntil(token, previewLesson(course).id)).toBeNull()
        expect(await apiData<{ mode: string }>(`/course/access?course_id=${course.id}`, token)).toMatchObject({
          mode: 'full',
        })
        // The course page now offers to learn, not to exchange.
        await page.goto(`/course/${course.id}.html`)
        await expect
          .poll(() => page.getByRole('link', { name: /开始学习|继续学习/ }).isVisible(), { timeout: 10_000 })
          .toBe(true)
        expect(await page.getByRole('link', { name: /积分兑换/ }).count()).toBe(0)
        // The exchange is listed in 兑换记录 (/order4), priced in points.
        await page.goto('/order4')
        const row = page.getByRole('link', { name: new RegExp(course.title) })
        await expect.poll(() => row.isVisible(), { timeout: 10_000 }).toBe(true)
        expect(await row.textContent()).toContain(`${price} 积分`)
      } finally {
        await context.close()
      }
    },
  )
})
