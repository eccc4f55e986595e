import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import {
  apiData,
  call,
  grantStaff,
  latestCode,
  newPhone,
  signIn,
  signInOperator,
  stepUpProof,
} from './support/commerce.ts'
import { consoleAs, settled } from './support/console.ts'

/**
 * The console's records read as what happened, at 1280×800: the action log names an operator's points adjustment
 * (调整积分, the member, the points, the reason) instead of its HTTP request; a member's points ledger names the
 * staff member who made a change; an operator without the orders export sees no 导出 CSV there but exports coupon
 * usage; granting a new staff member describes each role and names the new staff member.
 */

/** Answers the step-up dialog with the newest code sent to `phone`. */
async function passStepUp(page: Page, phone: string) {
  const stepUp = page.getByRole('dialog', { name: '短信验证' })
  await expect.poll(() => stepUp.isVisible(), { timeout: 10_000 }).toBe(true)
  await stepUp.getByRole('button', { name: '获取验证码' }).click()
  await expect.poll(() => page.getByText(/验证码已发送至/).isVisible(), { timeout: 10_000 }).toBe(true)
  await stepUp.getByLabel('验证码').fill(await latestCode(phone, 'step_up'))
  await stepUp.getByRole('button', { name: '验证并继续' }).click()
}

/** A table's content wider than its box: key columns would need a horizontal scroll. */
const overflows = (page: Page) =>
  page.locator('.ant-table-content').evaluate((el) => el.scrollWidth > el.clientWidth + 1)

/** A reason as long as operators write them: the log's row wraps it rather than scrolling sideways. */
const NOTE = '活动补发：十一月连续打卡满三十天的学员按活动规则补发积分，名单见运营群公告'

describe('console records', () => {
  it('name actions, actors and roles, and offer exports only to who may export', { timeout: 90_000 }, async () => {
    const root = await signInOperator()
    const adminPhone = newPhone()
    const madeAdmin = await call<{ member_id: number }>('POST', '/admin/staff', {
      token: root,
      headers: { 'x-step-up': await stepUpProof(root) },
      body: { phone: adminPhone, roles: ['admin'], name: '审计管理员' },
    })
    expect(madeAdmin.code).toBe(200)
    const [admin, learner, operatorPhone] = await Promise.all([
      signIn(adminPhone),
      signIn(),
      grantStaff(root, ['operator']),
    ])
    const operator = await signIn(operatorPhone)
    const me = await apiData<{ member_id: number; nickname: string }>('/userinfo', learner)

    // A real action: the admin gives the learner points with a reason.
    const adjusted = await call('POST', '/admin/points/adjust', {
      token: admin,
      headers: { 'idempotency-key': `records-${me.member_id}-${Date.now()}` },
      body: { member_id: me.member_id, delta: 50, note: NOTE },
    })
    expect(adjusted.code).toBe(200)

    // The action log reads it as 调整积分 with the member, the points and the reason, not as POST /api/….
    const { context, page } = await consoleAs(admin)
    await page.goto(`/admin/staff/log?q=${madeAdmin.data.member_id}`)
    const logged = page.getByRole('row').filter({ hasText: '调整积分' })
    await expect.poll(() => logged.isVisible(), { timeout: 15_000 }).toBe(true)
    const line = await logged.innerText()
    expect(line).toContain(`会员 ${me.nickname}`)
    expect(line).toContain('积分 +50')
    expect(line).toContain('原因：活动补发')
    expect(line).toContain('成功')
    expect(await page.locator('.ant-table-tbody').innerText()).not.toMatch(/POST|\/api\/|\{"/)
    await settled(page)
    await shot(page, 'console-records-log-1280')
    expect(await overflows(page)).toBe(false)

    // The member's points ledger names who made the change.
    await page.goto(`/admin/members/${me.member_id}`)
    await page.getByRole('tab', { name: /积分/ }).click()
    const entry = page.getByRole('tabpanel').getByRole('row').filter({ hasText: NOTE })
    await expect.poll(() => entry.isVisible(), { timeout: 10_000 }).toBe(true)
    expect(await entry.innerText()).toMatch(/人工调整[\s\S]*审计管理员（员工）/)
    expect(await page.getByRole('tabpanel').innerText()).not.toMatch(/(admin|member):\d+/)
    await settled(page)
    await shot(page, 'console-records-ledger-1280')

    // Granting a new staff member: each role says what it may do; the new staff member is named.
    await page.goto('/admin/staff')
    await page.getByRole('button', { name: '授权新员工' }).click()
    const dialog = page.getByRole('dialog').filter({ hasText: '授权新员工' })
    await expect.poll(() => dialog.isVisible()).toBe(true)
    const roles = await dialog.innerText()
    expect(roles).toMatch(/财务[\s\S]*审批退款/)
    expect(roles).toContain('编辑课程（仅自己的课程）')
    expect(roles).toMatch(/管理员[\s\S]*全部功能/)
    const staffPhone = newPhone()
    const staffName = `张三${staffPhone.slice(-3)}`
    await dialog.getByLabel('手机号').fill(staffPhone)
    await dialog.getByLabel('姓名（选填）').fill(staffName)
    await dialog.getByRole('checkbox', { name: /^运营/ }).check()
    await settled(page)
    await shot(page, 'console-records-grant-1280')
    await dialog.getByRole('button', { name: /保\s?存/ }).click()
    await passStepUp(page, adminPhone)
    await expect.poll(() => page.getByText(`已授权 ${staffName} 为 运营`).isVisible(), { timeout: 10_000 }).toBe(true)
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: staffName }).isVisible(), { timeout: 10_000 })
      .toBe(true)
    await shot(page, 'console-records-granted-1280')
    await context.close()

    // An operator may not export orders: no button. Coupon usage they do export.
    const asOperator = await consoleAs(operator)
    await asOperator.page.goto('/admin/sales/orders')
    await expect.poll(() => asOperator.page.getByRole('table').isVisible(), { timeout: 15_000 }).toBe(true)
    await settled(asOperator.page)
    expect(await asOperator.page.getByRole('button', { name: /导出 CSV/ }).count()).toBe(0)
    await shot(asOperator.page, 'console-records-orders-operator-1280')
    await asOperator.page.goto('/admin/sales/coupons?tab=issued')
    const exportButton = asOperator.page.getByRole('button', { name: /导出 CSV/ })
    await expect.poll(() => exportButton.isVisible(), { timeout: 15_000 }).toBe(true)
    const downloaded = asOperator.page.waitForEvent('download', { timeout: 20_000 })
    await exportButton.click()
    await passStepUp(asOperator.page, operatorPhone)
    const file = await (await downloaded).path()
    expect((await readFile(file, 'utf8')).split('\n')[0]).toContain('模板')
    await asOperator.context.close()
  })
})
