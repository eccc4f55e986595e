import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import {
  apiData,
  buyWithH5,
  courseByTitle,
  grantStaff,
  newPhone,
  openDevice,
  playableUntil,
  previewLesson,
  signIn,
  signInOperator,
} from './support/commerce.ts'
import { consoleAs, settled } from './support/console.ts'

/**
 * The operator console's dashboard and members (issue 13) at 1280×800 (and a tablet at 820×1180): an operator
 * opens the dashboard, finds a learner by phone, grants a course with a reason after a confirmation naming the course
 * and the member, and the learner can watch the whole course at once.
 */

const TABLET = { width: 820, height: 1180 }
/** A staff member with these roles, granted by an admin through the staff API, signed in by SMS. */
async function staffMember(roles: string[]) {
  return signIn(await grantStaff(await signInOperator(), roles))
}

describe('the console dashboard and members', () => {
  it('an operator finds a learner by phone and grants a course with a reason', { timeout: 120_000 }, async () => {
    const learnerPhone = newPhone()
    const learner = await signIn(learnerPhone)
    const course = await courseByTitle('AutoCAD 室内制图从入门到精通')
    const lesson = previewLesson(course)
    expect(await playableUntil(learner, lesson.id)).toEqual(expect.any(Number))
    // A VIP learner: the members list tags them.
    const plans = await apiData<{ plans: { id: number }[] }>('/v2/vip', learner)
    const phone = await openDevice('phone', learner)
    await buyWithH5(phone.page, learner, '/pay/vip', { plan_id: plans.plans[0]!.id })
    await phone.context.close()
    const operator = await staffMember(['operator'])

    // The dashboard: figures, charts (ECharts, loaded with the screen) and the work waiting.
    const { context, page } = await consoleAs(operator)
    await page.goto('/admin')
    await expect.poll(() => page.getByText('今日收入').isVisible(), { timeout: 15_000 }).toBe(true)
    await expect.poll(() => page.locator('[role="img"] svg').count(), { timeout: 15_000 }).toBeGreaterThan(1)
    expect(await page.getByText('待审批退款').isVisible()).toBe(true)
    await settled(page)
    await shot(page, 'console-dashboard-1280')

    // Find the learner by phone.
    await page.getByRole('menuitem', { name: '会员' }).click()
    await page.waitForURL(/\/admin\/members$/)
    await page.getByLabel('搜索').fill(learnerPhone)
    await page.getByLabel('搜索').press('Enter')
    const row = page.getByRole('row').filter({ hasText: learnerPhone })
    await expect.poll(() => row.isVisible(), { timeout: 10_000 }).toBe(true)
    await expect.poll(() => page.getByText('共 1 条').isVisible(), { timeout: 10_000 }).toBe(true)
    expect(await row.locator('.ant-tag').allInnerTexts()).toEqual(['学员', 'VIP'])
    await settled(page)
    await shot(page, 'console-members-1280')
    await row.click()
    await page.waitForURL(/\/admin\/members\/\d+$/)
    const memberId = Number(/\/members\/(\d+)$/.exec(page.url())![1])
    await expect.poll(() => page.getByText('这位会员还没有任何课程权限').isVisible(), { timeout: 10_000 }).toBe(true)

    // Grant the course with a reason; the confirmation names the course and the member.
    await page.getByRole('button', { name: '授予课程' }).click()
    const dialog = page.getByRole('dialog').filter({ hasText: '授予课程给' })
    await dialog.getByRole('button', { name: '下一步' }).click()
    await expect.poll(() => dialog.getByText('请选择课程').isVisible()).toBe(true)
    await dialog.getByLabel('课程').fill('AutoCAD')
    const option = page
      .locator('.ant-select-item-option')
      .filter({ hasText: `AutoCAD 室内制图从入门到精通（ID ${course.id}` })
    await expect.poll(() => option.isVisible(), { timeout: 10_000 }).toBe(true)
    await option.click()
    await dialog.getByLabel('授予原因').fill('补')
    await dialog.getByRole('button', { name: '下一步' }).click()
    await expect.poll(() => dialog.getByText('授权原因至少 2 个字').isVisible()).toBe(true)
    await dialog.getByLabel('授予原因').fill('线下报名，补开课程')
    await settled(page)
    await shot(page, 'console-member-grant-1280')
    await dialog.getByRole('button', { name: '下一步' }).click()
    const confirm = page.getByRole('dialog').filter({ hasText: '确认授予课程' })
    await expect.poll(() => confirm.isVisible()).toBe(true)
    const asked = await confirm.innerText()
    expect(asked).toContain('《AutoCAD 室内制图从入门到精通》')
    expect(asked).toContain(`ID ${memberId}，${learnerPhone}`)
    expect(asked).toContain('线下报名，补开课程')
    await confirm.getByRole('button', { name: '确认授予' }).click()

    // The page shows the new entitlement and why it exists; the learner owns the course at once.
    const granted = page.getByRole('row').filter({ hasText: 'AutoCAD 室内制图从入门到精通' })
    await expect.poll(() => granted.isVisible(), { timeout: 10_000 }).toBe(true)
    expect(await granted.innerText()).toMatch(/后台授予[\s\S]*线下报名，补开课程[\s\S]*有效/)
    await expect.poll(() => playableUntil(learner, lesson.id), { timeout: 10_000 }).toBeNull()
    await settled(page)
    await shot(page, 'console-member-1280')

    // The other tabs: sessions (the learner's sign-in), points.
    await page.getByRole('tab', { name: /登录会话/ }).click()
    await expect.poll(() => page.getByText('在线 1 个').isVisible(), { timeout: 10_000 }).toBe(true)
    await settled(page)
    await shot(page, 'console-member-sessions-1280')
    await page.getByRole('tab', { name: /积分/ }).click()
    const points = page.getByRole('tabpanel').filter({ hasText: '当前积分' })
    await expect.poll(() => points.getByText(/共 \d+ 条|没有积分变动/).isVisible(), { timeout: 10_000 }).toBe(true)
    await settled(page)
    await shot(page, 'console-member-points-1280')
    await context.close()

    // The dashboard and the member page on a tablet.
    const tablet = await consoleAs(operator, TABLET)
    await tablet.page.goto('/admin')
    await expect.poll(() => tablet.page.locator('[role="img"] svg').count(), { timeout: 15_000 }).toBeGreaterThan(1)
    await settled(tablet.page)
    await shot(tablet.page, 'console-dashboard-820')
    await tablet.page.goto(`/admin/members/${memberId}`)
    await expect.poll(() => tablet.page.getByRole('row').count(), { timeout: 10_000 }).toBeGreaterThan(1)
    await settled(tablet.page)
    await shot(tablet.page, 'console-member-820')
    await tablet.context.close()
  })

  it('a teacher sees how learners watch, never money', { timeout: 60_000 }, async () => {
    const teacher = await staffMember(['teacher'])
    const { context, page } = await consoleAs(teacher)
    await page.goto('/admin')
    await expect.poll(() => page.getByText('今日活跃学员').isVisible(), { timeout: 15_000 }).toBe(true)
    await settled(page)
    expect(await page.getByText(/收入|退款|新会员/).count()).toBe(0)
    await shot(page, 'console-dashboard-teacher-1280')
    await context.close()
  })
})
