import { describe, expect, inject, it } from 'vitest'
import { launchBrowser, shot } from './support/browser.ts'
import {
  call,
  courseByTitle,
  DESKTOP,
  expectPlaysPastPreview,
  openDevice,
  playableUntil,
  previewLesson,
  signIn,
  signInOperator,
  stepUpProof,
} from './support/commerce.ts'

/**
 * Redeem codes (issue 14 §1): an operator makes a batch (its codes come back once, as a CSV); a learner on a phone
 * redeems one from /mine (typed loosely: lower case and spaces), sees what it gives, confirms, starts learning and
 * plays the course past its preview; /order4 lists the exchange. The console shows the batches and a batch's codes
 * at 1280×800, and voiding the used code takes the course back.
 */

/** A batch made through the console's API with a step-up proof: its id and codes (from the CSV). */
async function makeBatch(operator: string, body: Record<string, unknown>) {
  const res = await fetch(`${inject('baseUrl')}/api/admin/redeem/batches`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'zxb-token': operator,
      'x-step-up': await stepUpProof(operator),
    },
    body: JSON.stringify({
      count: 3,
      valid_from: new Date(Date.now() - 60_000).toISOString(),
      valid_until: new Date(Date.now() + 30 * 24 * 3600_000).toISOString(),
      ...body,
    }),
  })
  const text = await res.text()
  if (!res.ok || !res.headers.get('content-type')?.startsWith('text/csv')) throw new Error(`batch: ${text}`)
  const codes = text
    .trim()
    .split('\r\n')
    .slice(1)
    .map((l) => l.split(',')[1]!)
  return { id: Number(res.headers.get('x-redeem-batch-id')), codes }
}

describe('redeem codes', () => {
  it(
    'a learner redeems a code from /mine and plays the course; voiding it takes the course back',
    { timeout: 180_000 },
    async () => {
      const [operator, learner] = await Promise.all([signInOperator(), signIn()])
      const course = await courseByTitle('AutoCAD 室内制图从入门到精通')
      const lesson = previewLesson(course)
      const batch = await makeBatch(operator, { name: '抖音渠道 11 月', course_ids: [course.id], note: '经销商 A' })

      const { context, page } = await openDevice('phone', learner)
      await page.goto('/mine')
      await page.getByRole('link', { name: /兑换码/ }).click()
      await page.waitForURL(/\/mine\/redeem$/)
      const typed = batch.codes[0]!.toLowerCase().replaceAll('-', ' ')
      await page.getByRole('textbox', { name: '兑换码' }).fill(typed)
      await page.getByRole('button', { name: '查看可兑换内容' }).click()
      await expect.poll(() => page.getByText(`《${course.title}》`).isVisible(), { timeout: 10_000 }).toBe(true)
      await shot(page, 'redeem-preview')
      await page.getByRole('button', { name: '确认兑换' }).click()
      await expect.poll(() => page.getByText('兑换成功', { exact: true }).isVisible(), { timeout: 10_000 }).toBe(true)
      await shot(page, 'redeem-done')
      expect(await playableUntil(learner, lesson.id)).toBeNull()

      // A second try of the same code says it was used, in words.
      await page.getByRole('button', { name: '继续兑换' }).click()
      await page.getByRole('textbox', { name: '兑换码' }).fill(batch.codes[0]!)
      await page.getByRole('button', { name: '查看可兑换内容' }).click()
      await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 10_000 }).toBe('你已经用过这个兑换码了')
      // A typo is told apart from a wrong code.
      const c = batch.codes[1]!
      await page.getByRole('textbox', { name: '兑换码' }).fill(c.slice(0, 5) + (c[5] === 'A' ? 'B' : 'A') + c.slice(6))
      await page.getByRole('button', { name: '查看可兑换内容' }).click()
      await expect
        .poll(() => page.getByRole('alert').textContent(), { timeout: 10_000 })
        .toBe('兑换码有输错的字符，请核对后重新输入')
      await shot(page, 'redeem-typo')

      // The record, then the course.
      await page.goto('/order4')
      const record = page.getByRole('listitem').filter({ hasText: course.title })
      await expect.poll(() => record.isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await record.textContent()).toContain('兑换码 · 抖音渠道 11 月')
      await shot(page, 'redeem-order4')
      await record.getByRole('link', { name: '去学习' }).click()
      await page.waitForURL(new RegExp(`/course/${course.id}`))
      // The course page offers to learn, not to buy.
      await expect
        .poll(() => page.getByRole('link', { name: /开始学习|继续学习/ }).isVisible(), { timeout: 10_000 })
        .toBe(true)
      await shot(page, 'redeem-course')
      await expectPlaysPastPreview(page, lesson)

      // The operator's console at 1280×800: the batch, its codes, voiding the used one.
      const browser = await launchBrowser()
      const desk = await browser.newContext({ viewport: DESKTOP, locale: 'zh-CN', baseURL: inject('baseUrl') })
      await desk.addInitScript((t) => {
        localStorage.setItem('zx_token', JSON.stringify({ token: t, expire: Date.now() + 3600_000 }))
      }, operator)
      const admin = await desk.newPage()
      admin.on('pageerror', (err) => {
        throw err
      })
      await admin.goto('/admin/marketing/redeem')
      await expect
        .poll(() => admin.getByRole('menuitem', { name: '兑换码' }).isVisible(), { timeout: 15_000 })
        .toBe(true)
      const row = admin.getByRole('row').filter({ hasText: '抖音渠道 11 月' })
      await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true)
      expect(await row.textContent()).toContain('1 / 3')
      await expect.poll(() => admin.locator('.ant-spin-spinning').count(), { timeout: 10_000 }).toBe(0)
      await shot(admin, 'console-redeem-batches-1280')
      await admin.getByRole('button', { name: '新建批次' }).click()
      await admin.getByLabel('批次名称').fill('小红书合作 12 月')
      await shot(admin, 'console-redeem-create-1280')
      await admin
        .getByRole('button', { name: '取 消' })
        .or(admin.getByRole('button', { name: '取消' }))
        .first()
        .click()

      await row.getByRole('link', { name: '抖音渠道 11 月' }).click()
      await admin.waitForURL(/\/admin\/marketing\/redeem\/\d+/)
      const used = admin.getByRole('row').filter({ hasText: '已使用' })
      await expect.poll(() => used.isVisible(), { timeout: 15_000 }).toBe(true)
      await expect.poll(() => admin.locator('.ant-spin-spinning').count(), { timeout: 10_000 }).toBe(0)
      await shot(admin, 'console-redeem-codes-1280')
      await used.getByText('作废').click()
      const dialog = admin.getByRole('dialog')
      await dialog.getByLabel('作废原因').fill('经销商退货')
      await dialog.getByRole('button', { name: '确认作废' }).click()
      await expect.poll(() => admin.getByText(/已作废，收回 1 次兑换/).isVisible(), { timeout: 10_000 }).toBe(true)
      await desk.close()

      expect(await playableUntil(learner, lesson.id)).toBe(lesson.free_seconds)
      await page.goto('/order4')
      await expect
        .poll(() => page.getByText('兑换码已被作废，兑换的内容已收回').isVisible(), { timeout: 10_000 })
        .toBe(true)
      await shot(page, 'redeem-order4-revoked')
      expect((await call('GET', '/exchange_records', { token: learner })).code).toBe(200)
      await context.close()
    },
  )
})
