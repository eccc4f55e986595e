import type { Locator, Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { launchBrowser, shot } from './support/browser.ts'
import { apiData, call, DESKTOP, latestCode, newPhone, signIn, signInOperator } from './support/commerce.ts'
import { settled } from './support/console.ts'

/**
 * The console's dialogs when something is refused, at 1280×800: a points deduction the balance cannot cover, a
 * form sent empty, and a confirmed action the server refuses. Each time the dialog stays open, its button stops
 * spinning, the operator reads why in Chinese, and the page throws nothing (no uncaught error or rejection).
 */

/** The console signed in as `token`, with every page error and console error the page reports kept in `errors`. */
async function watchedConsole(token: string) {
  const browser = await launchBrowser()
  const context = await browser.newContext({ viewport: DESKTOP, locale: 'zh-CN', baseURL: inject('baseUrl') })
  await context.addInitScript((t) => {
    localStorage.setItem('zx_token', JSON.stringify({ token: t, expire: Date.now() + 3600_000 }))
  }, token)
  const page = await context.newPage()
  const errors: string[] = []
  // An uncaught error or promise rejection arrives as `pageerror` ("Uncaught (in promise) …" included).
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`))
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console.error: ${m.text()}`)
  })
  return { context, page, errors }
}

/** The dialog stays open, its OK button has stopped spinning and shows the refusal. */
async function expectRefusedIn(dialog: Locator, ok: Locator, refusal: string) {
  await expect.poll(() => dialog.locator('.zx-confirm-refusal').innerText(), { timeout: 10_000 }).toContain(refusal)
  await expect.poll(() => ok.getAttribute('class')).not.toContain('ant-btn-loading')
  expect(await dialog.isVisible()).toBe(true)
  expect(await ok.isEnabled()).toBe(true)
}

/** The form item labelled `label` on the page shows `message` under its field. */
const explainOf = (page: Page, scope: Locator, label: string) =>
  scope
    .locator('.ant-form-item')
    .filter({ has: page.getByLabel(label, { exact: true }) })
    .locator('.ant-form-item-explain')

describe('console dialogs after a failed check or a refusal', () => {
  it('stay open, stop spinning and say why, without a page error', { timeout: 60_000 }, async () => {
    const learnerPhone = newPhone()
    const [admin] = await Promise.all([signInOperator(), signIn(learnerPhone)])
    const members = await apiData<{ list: { id: number }[] }>(`/admin/members?q=${learnerPhone}`, admin)
    const memberId = members.list[0]!.id
    const given = await call('POST', '/admin/points/adjust', {
      token: admin,
      body: { member_id: memberId, delta: 50, note: '活动奖励' },
    })
    expect(given.code).toBe(200)
    const { context, page, errors } = await watchedConsole(admin)

    // (a) The points screen: the adjust form sent empty names both fields (required, in Chinese).
    await page.goto(`/admin/sales/points?phone=${learnerPhone}`)
    const adjust = page.locator('.ant-card').filter({ hasText: '调整积分' })
    await expect.poll(() => adjust.getByText('积分余额').isVisible(), { timeout: 15_000 }).toBe(true)
    expect(await adjust.locator('.ant-descriptions').innerText()).toContain('50')
    await adjust.getByRole('button', { name: /调\s*整/ }).click()
    await expect.poll(() => adjust.getByText('请填写积分数').isVisible()).toBe(true)
    expect(await adjust.getByText('请填写调整原因').isVisible()).toBe(true)

    // Taking 80 of its 50 points: the confirmation asks, the server refuses, the confirmation stays open with
    // the reason (and the button stops spinning); 取消 leaves the reason under 积分, and the balance is untouched.
    await adjust.getByLabel('积分（负数为扣减）').fill('-80')
    await adjust.getByLabel('原因', { exact: true }).fill('误发扣回')
    await adjust.getByRole('button', { name: /调\s*整/ }).click()
    const deduct = page.getByRole('dialog', { name: '扣减积分' })
    await expect.poll(() => deduct.isVisible()).toBe(true)
    expect(await deduct.innerText()).toContain('当前余额 50')
    const ok = deduct.getByRole('button', { name: '确认扣减 80 积分' })
    await ok.click()
    await expectRefusedIn(deduct, ok, '积分余额不足，不能扣减这么多')
    await settled(page)
    await shot(page, 'console-points-refused-1280')
    await deduct.getByRole('button', { name: /取\s*消/ }).click()
    await expect.poll(() => deduct.isVisible()).toBe(false)
    expect(await explainOf(page, adjust, '积分（负数为扣减）').innerText()).toContain('积分余额不足')
    expect((await apiData<{ points_balance: number }>(`/admin/members/${memberId}`, admin)).points_balance).toBe(50)
    expect(errors).toEqual([])

    // (b) A dialog's form sent empty (授予课程 on the member's page): its required fields say so in Chinese.
    await page.goto(`/admin/members/${memberId}`)
    await page.getByRole('button', { name: '授予课程' }).click()
    const grant = page.getByRole('dialog').filter({ hasText: '授予课程给' })
    await expect.poll(() => grant.isVisible(), { timeout: 10_000 }).toBe(true)
    await grant.getByRole('button', { name: '下一步' }).click()
    await expect.poll(() => grant.getByText('请选择课程').isVisible()).toBe(true)
    expect(await grant.getByText('请填写授予原因').isVisible()).toBe(true)
    expect(await grant.isVisible()).toBe(true)
    await grant.getByRole('button', { name: /取\s*消/ }).click()
    await expect.poll(() => grant.isVisible()).toBe(false)
    expect(errors).toEqual([])

    // (c) A confirmed action the server refuses: the admin takes the admin role from themselves. After the SMS
    // step-up (over the waiting confirmation) the refusal shows in the confirmation, which stays open.
    const me = await apiData<{ member_id: number }>('/admin/me', admin)
    const { phone } = await apiData<{ phone: string }>(`/admin/members/${me.member_id}`, admin)
    await page.goto(`/admin/staff?q=${phone}`)
    const row = page.getByRole('row').filter({ hasText: phone })
    await expect.poll(() => row.isVisible(), { timeout: 10_000 }).toBe(true)
    await row.getByText('编辑').click()
    const roles = page.getByRole('dialog').filter({ hasText: '编辑员工：' })
    await expect.poll(() => roles.isVisible()).toBe(true)
    await roles.getByRole('checkbox', { name: '管理员' }).uncheck()
    await roles.getByRole('button', { name: /保\s*存/ }).click()
    const revoke = page.getByRole('dialog', { name: '撤销全部角色' })
    await expect.poll(() => revoke.isVisible()).toBe(true)
    const confirmRevoke = revoke.getByRole('button', { name: '确认撤销' })
    await confirmRevoke.click()
    const stepUp = page.getByRole('dialog', { name: '短信验证' })
    await expect.poll(() => stepUp.isVisible()).toBe(true)
    await stepUp.getByRole('button', { name: '获取验证码' }).click()
    await expect.poll(() => page.getByText(/验证码已发送至/).isVisible(), { timeout: 10_000 }).toBe(true)
    await stepUp.getByLabel('验证码').fill(await latestCode(phone, 'step_up'))
    await stepUp.getByRole('button', { name: '验证并继续' }).click()
    await expectRefusedIn(revoke, confirmRevoke, '不能撤销自己的管理员角色，请让另一位管理员操作')
    expect(await roles.isVisible()).toBe(true)
    await settled(page)
    await shot(page, 'console-staff-refused-1280')
    expect((await apiData<{ roles: string[] }>('/admin/me', admin)).roles).toContain('admin')
    expect(errors).toEqual([])
    await context.close()
  })
})
