import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import { apiData, buyWithH5, openDevice, signIn } from './support/commerce.ts'

/**
 * A bundle refunded course by course (issue 10 §1): the refund screen lists the bundle's courses with their share
 * of what was paid; the learner unticks one, the amount follows, and the request names the courses it covers.
 */
describe('a per-course refund of a bundle', () => {
  it('the learner chooses the courses to give back; the amount is their shares', { timeout: 120_000 }, async () => {
    const token = await signIn()
    const bundles = (await apiData<{ list: { id: number; title: string }[] }>('/foryou/bundles')).list
    const bundle = bundles.find((b) => b.title === '办公效率全家桶')!
    const { context, page } = await openDevice('phone', token)
    try {
      const orderNo = await buyWithH5(page, token, '/foryou/pay', { id: bundle.id })
      const check = await apiData<{ amount_fen: number; lines: { title: string; share_fen: number }[] }>(
        `/refunds/check?order_no=${orderNo}`,
        token,
      )
      expect(check.lines.length).toBeGreaterThan(1)
      expect(check.lines.reduce((s, l) => s + l.share_fen, 0)).toBe(check.amount_fen)

      await page.goto(`/refund/${orderNo}`)
      const lines = page.getByTestId('refund-line')
      await expect.poll(() => lines.count(), { timeout: 10_000 }).toBe(check.lines.length)
      const amount = page.getByTestId('refund-amount')
      expect(await amount.innerText()).toBe(`¥${check.amount_fen / 100}`)
      // Untick the first course: it is kept, and the amount drops by its share.
      await lines.first().getByRole('checkbox').uncheck()
      const kept = check.lines[0]!
      const rest = check.amount_fen - kept.share_fen
      expect(await amount.innerText()).toBe(`¥${rest / 100}`)
      await shot(page, 'refund-lines-choose')
      await page.getByRole('button', { name: '不想学了' }).click()
      await page.getByRole('button', { name: '提交退款申请' }).click()
      const listed = page.getByTestId('refund-lines')
      await expect.poll(() => listed.isVisible(), { timeout: 10_000 }).toBe(true)
      const text = await listed.innerText()
      expect(text).not.toContain(kept.title)
      for (const l of check.lines.slice(1)) expect(text).toContain(l.title)
      await shot(page, 'refund-lines-requested')

      // The same screen inside WeChat.
      const wechat = await openDevice('wechat', token)
      await wechat.page.goto(`/refund/${orderNo}`)
      await expect.poll(() => wechat.page.getByTestId('refund-lines').isVisible(), { timeout: 10_000 }).toBe(true)
      await shot(wechat.page, 'refund-lines-wechat')
      await wechat.context.close()
    } finally {
      await context.close()
    }
  })
})
