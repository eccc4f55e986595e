import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import { apiData, call, newPhone, openDevice, signIn } from './support/commerce.ts'

/** The newest code of `purpose` sent to `phone`, from the development outbox. */
async function codeFor(phone: string, purpose: string) {
  const list = (
    await apiData<{ list: { code: string; purpose: string; sent_at: string }[] }>(`/dev/outbox?phone=${phone}`)
  ).list
  return list.filter((m) => m.purpose === purpose).sort((a, b) => b.sent_at.localeCompare(a.sent_at))[0]!.code
}

/**
 * PIPL rights from /mine (issue 10 §5): the learner downloads their data as JSON and deletes their account, each
 * after an SMS code; the page says what is deleted and what is kept anonymised.
 */
describe('exporting my data and deleting my account', () => {
  it('downloads a JSON of my data after an SMS code', { timeout: 90_000 }, async () => {
    const phone = newPhone()
    const token = await signIn(phone)
    const { context, page } = await openDevice('phone', token)
    try {
      await page.goto('/mine')
      await page.getByRole('link', { name: '导出数据与注销账号' }).click()
      await page.waitForURL(/\/mine\/data$/)
      const erase = page.getByRole('region', { name: '注销账号' })
      await expect.poll(() => erase.isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await erase.innerText()).toMatch(/订单、支付和退款记录以及积分明细需保存不少于三年/)

      await page.getByRole('button', { name: '导出我的数据' }).click()
      await page.getByRole('button', { name: '获取验证码' }).click()
      await expect.poll(async () => (await codeFor(phone, 'account').catch(() => null)) !== null).toBe(true)
      await page.getByPlaceholder('请输入验证码').fill(await codeFor(phone, 'account'))
      await shot(page, 'my-data-export')
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: '验证并下载' }).click(),
      ])
      const data = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as {
        profile: { phone: string }
        sessions: unknown[]
      }
      expect(data.profile.phone).toBe(phone)
      expect(data.sessions.length).toBeGreaterThan(0)
    } finally {
      await context.close()
    }
  })

  it('deletes the account after a code and signs the learner out', { timeout: 90_000 }, async () => {
    const phone = newPhone()
    const token = await signIn(phone)
    const { context, page } = await openDevice('wechat', token)
    try {
      await page.goto('/mine/data')
      await expect
        .poll(() => page.getByRole('button', { name: '注销账号' }).isVisible(), { timeout: 10_000 })
        .toBe(true)
      await page.getByRole('button', { name: '注销账号' }).click()
      await page.getByRole('button', { name: '获取验证码' }).click()
      await expect.poll(async () => (await codeFor(phone, 'account').catch(() => null)) !== null).toBe(true)
      await page.getByPlaceholder('请输入验证码').fill(await codeFor(phone, 'account'))
      await shot(page, 'my-data-delete')
      await page.getByRole('button', { name: '验证并永久注销' }).click()
      await page.waitForURL((url) => url.pathname === '/', { timeout: 10_000 })
      expect([301, 504]).toContain((await call('GET', '/userinfo', { token })).code)
    } finally {
      await context.close()
    }
  })
})
