import { describe, expect, it } from 'vitest'
import { beijingDate } from '#shared/time.ts'
import { shot } from './support/browser.ts'
import {
  answerCashier,
  apiData,
  courseByTitle,
  expectPaid,
  expectPlaysPastPreview,
  openDevice,
  orderState,
  payOnCheckout,
  playableUntil,
  previewLesson,
  signIn,
} from './support/commerce.ts'

/**
 * Buying VIP on a phone (issue 4): a plan through WeChat Pay H5 at the simulator's cashier; the membership shows
 * its end date on /vip, and a VIP-free course plays in full without buying it.
 */

interface VipCentre {
  plans: { id: number; name: string; days: number; price_fen: number }[]
  membership: { active: boolean; expires_at: string } | null
}

describe('buying VIP', () => {
  it(
    'pays a plan with H5 at the cashier; /vip shows the end date and a VIP-free course plays past its preview',
    { timeout: 90_000 },
    async () => {
      const token = await signIn()
      const course = await courseByTitle('Photoshop 人像精修实战')
      expect(course.vip_free).toBe(true)
      const lesson = previewLesson(course)
      expect(await playableUntil(token, lesson.id)).toBe(lesson.free_seconds)
      const centre = await apiData<VipCentre>('/v2/vip', token)
      expect(centre.membership).toBeNull()
      const plan = centre.plans.find((p) => p.name === '月卡')!

      const { context, page } = await openDevice('phone', token)
      await page.goto('/vip')
      // The plans are cards to choose from; the button under them opens the checkout with the chosen one.
      const card = page.getByRole('radio', { name: new RegExp(plan.name) })
      await expect.poll(() => card.isVisible(), { timeout: 15_000 }).toBe(true)
      await card.click()
      expect(await page.getByRole('link', { name: `立即开通${plan.name}` }).getAttribute('href')).toBe(
        `/vipBuy?plan_id=${plan.id}`,
      )
      expect(await page.getByTestId('vip-membership').count()).toBe(0)

      // One plan's page (/vip/d/{id}) preselects it.
      await page.goto(`/vip/d/${plan.id}`)
      const option = page.getByRole('radio', { name: new RegExp(plan.name) })
      await expect.poll(() => option.getAttribute('aria-checked'), { timeout: 15_000 }).toBe('true')
      await expect
        .poll(() => page.getByRole('button', { name: `立即支付 ¥${plan.price_fen / 100}` }).isVisible(), {
          timeout: 10_000,
        })
        .toBe(true)
      await shot(page, 'commerce-vip-checkout')
      await payOnCheckout(page, /微信支付/)
      await answerCashier(page)
      const orderNo = await expectPaid(page)
      expect(await page.getByText('会员已开通').isVisible()).toBe(true)
      await shot(page, 'commerce-vip-result')
      expect(await orderState(token, orderNo)).toMatchObject({ kind: 'vip', state: 'paid', amount_fen: plan.price_fen })

      // The membership: 30 days from now, shown on /vip.
      const after = await apiData<VipCentre>('/v2/vip', token)
      expect(after.membership?.active).toBe(true)
      const expires = new Date(after.membership!.expires_at)
      expect(Math.abs(expires.getTime() - (Date.now() + plan.days * 86_400_000))).toBeLessThan(5 * 60_000)
      await page.getByRole('link', { name: '去看会员课程' }).click()
      await page.waitForURL((url) => url.pathname === '/vip')
      const mine = page.getByTestId('vip-membership')
      await expect.poll(() => mine.isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await mine.innerText()).toContain(`你的会员有效期至 ${beijingDate(expires)}`)
      await shot(page, 'commerce-vip-centre')

      // A VIP-free course: the paid lesson now plays in full, without an order for the course.
      await page.goto(`/course/${course.id}.html`)
      await expect
        .poll(() => page.getByRole('link', { name: /开始学习|继续学习/ }).isVisible(), { timeout: 10_000 })
        .toBe(true)
      expect(await page.getByRole('link', { name: /^立即购买/ }).count()).toBe(0)
      await shot(page, 'commerce-vip-course')
      expect(await playableUntil(token, lesson.id)).toBeNull()
      await expectPlaysPastPreview(page, lesson)

      // The VIP order is listed on /order2.
      await page.goto('/order2')
      const row = page.getByRole('link', { name: new RegExp(`VIP 会员 · ${plan.name}`) })
      await expect.poll(() => row.isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await row.innerText()).toContain('已支付')
      await context.close()
    },
  )
})
