import type { Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { shot } from './support/browser.ts'
import {
  answerCashier,
  courseByTitle,
  expectPaid,
  grantStaff,
  latestCode,
  newPhone,
  openDevice,
  orderState,
  payOnCheckout,
  requestRefund,
  signIn,
  signInOperator,
} from './support/commerce.ts'
import { consoleAs, consoleContext, settled } from './support/console.ts'

/**
 * The operator console (issue 13) in a desktop browser at 1280×800 (and a tablet at 820×1180): finance signs in
 * with an SMS code and approves a refund after a fresh code; a teacher cannot open the sales screens and the API
 * refuses the call too.
 */

/** Signs in on /admin/login with the SMS code, as staff do. */
async function signInToConsole(page: Page, phone: string) {
  await page.goto('/admin')
  await page.waitForURL(/\/admin\/login$/)
  await page.getByLabel('手机号').fill(phone)
  await page.getByRole('button', { name: '获取验证码' }).click()
  await expect.poll(() => page.getByText('验证码已发送').isVisible(), { timeout: 10_000 }).toBe(true)
  // The button counts down the minute before another code may be asked for, as on the learners' sign-in.
  expect(await page.getByRole('button', { name: /^\d+s$/ }).isDisabled()).toBe(true)
  await page.getByLabel('验证码').fill(await latestCode(phone))
  await page
    .getByRole('button', { name: '登 录' })
    .or(page.getByRole('button', { name: '登录' }))
    .first()
    .click()
  await page.waitForURL(/\/admin$/)
}

describe('the operator console', () => {
  it('finance signs in and approves a refund after a fresh SMS code', { timeout: 120_000 }, async () => {
    const [learner, admin] = await Promise.all([signIn(), signInOperator()])
    const course = await courseByTitle('AutoCAD 室内制图从入门到精通')
    const phoneDevice = await openDevice('phone', learner)
    await phoneDevice.page.goto(`/course/coursePurchase?course_id=${course.id}`)
    await payOnCheckout(phoneDevice.page, /微信支付/)
    await answerCashier(phoneDevice.page)
    const orderNo = await expectPaid(phoneDevice.page)
    await phoneDevice.context.close()
    const asked = await requestRefund(learner, orderNo, '买错了课程')
    expect(asked.state).toBe('requested')

    const financePhone = await grantStaff(admin, ['finance'])
    const { context, page } = await consoleContext()
    await signInToConsole(page, financePhone)
    // The menu shows what finance may open, and not the staff screens.
    await expect.poll(() => page.getByRole('menuitem', { name: '退款' }).isVisible(), { timeout: 10_000 }).toBe(true)
    expect(await page.getByRole('menuitem', { name: '员工与角色' }).count()).toBe(0)
    await settled(page)
    await shot(page, 'console-home-1280')

    await page.getByRole('menuitem', { name: '退款' }).click()
    await page.waitForURL(/\/admin\/sales\/refunds/)
    // The refunds screen (its chunk loaded): its keyboard hint above the queue.
    await expect.poll(() => page.getByText('打开订单详情').isVisible(), { timeout: 10_000 }).toBe(true)
    const row = page
      .getByRole('row')
      .filter({ hasText: orderNo.slice(-6) })
      .or(page.getByRole('row').filter({ hasText: course.title }))
    await expect.poll(() => row.first().isVisible(), { timeout: 10_000 }).toBe(true)
    await settled(page)
    await shot(page, 'console-refunds-1280')

    // The queue's keyboard (its hint on the screen): / focuses the search, where J is only typed; outside it
    // J/↓ and K/↑ move the current row, Enter opens its order with the event log.
    await page.keyboard.press('/')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('搜索')
    await page.keyboard.press('j')
    expect(await page.getByLabel('搜索').inputValue()).toBe('j')
    await page.getByLabel('搜索').fill('')
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('k')
    expect(await page.locator('.zx-console-current').count()).toBe(1)
    const current = await page.locator('.zx-console-current').innerText()
    expect(current).toBe(await page.locator('.ant-table-row').first().innerText())
    await page.keyboard.press('Enter')
    const order = page.getByRole('dialog').filter({ hasText: '事件记录' })
    await expect.poll(() => order.isVisible(), { timeout: 10_000 }).toBe(true)
    expect(page.url()).toMatch(/detail=ZX\d+/)
    await page.keyboard.press('Escape')
    await expect.poll(() => order.isVisible()).toBe(false)

    await row.first().getByText('同意').click()
    const confirm = page.getByRole('dialog', { name: '同意退款' })
    expect(await confirm.innerText()).toContain(`¥${course.price_fen / 100}`)
    await confirm.getByRole('button', { name: /同意并退款/ }).click()

    // The step-up: a code to finance's own phone, typed in.
    const stepUp = page.getByRole('dialog', { name: '短信验证' })
    await expect.poll(() => stepUp.isVisible()).toBe(true)
    await stepUp.getByRole('button', { name: '获取验证码' }).click()
    await expect.poll(() => page.getByText(/验证码已发送至/).isVisible(), { timeout: 10_000 }).toBe(true)
    await stepUp.getByLabel('验证码').fill(await latestCode(financePhone, 'step_up'))
    await settled(page)
    await shot(page, 'console-step-up-1280')
    await stepUp.getByRole('button', { name: '验证并继续' }).click()
    await expect.poll(() => page.getByText(/：退款中|：已退款/).isVisible(), { timeout: 15_000 }).toBe(true)
    await expect.poll(async () => (await orderState(learner, orderNo)).state, { timeout: 15_000 }).toMatch(/refund/)

    // The orders screen finds the order by number and shows its event log.
    await page.goto(`/admin/sales/orders?q=${orderNo}`)
    await page.getByRole('cell', { name: orderNo }).click()
    await expect.poll(() => page.getByText('事件记录').isVisible(), { timeout: 10_000 }).toBe(true)
    await settled(page)
    await shot(page, 'console-order-1280')
    const record = await page.evaluate(() => localStorage.getItem('zx_token'))
    await context.close()

    // The same screen on a tablet, signed in as on the desktop (a second code within a minute would be refused).
    const tablet = await consoleContext({ width: 820, height: 1180 })
    await tablet.context.addInitScript((r) => localStorage.setItem('zx_token', r), record!)
    await tablet.page.goto('/admin/sales/refunds')
    await expect.poll(() => tablet.page.getByRole('table').isVisible(), { timeout: 10_000 }).toBe(true)
    await settled(tablet.page)
    await shot(tablet.page, 'console-refunds-820')
    await tablet.context.close()
  })

  it('a teacher cannot open the sales screens, and the API refuses the call', { timeout: 60_000 }, async () => {
    const admin = await signInOperator()
    const teacherPhone = await grantStaff(admin, ['teacher'])
    const { context, page } = await consoleContext()
    await signInToConsole(page, teacherPhone)
    await expect.poll(() => page.getByRole('menuitem', { name: '工作台' }).isVisible(), { timeout: 10_000 }).toBe(true)
    expect(await page.getByRole('menuitem', { name: '订单' }).count()).toBe(0)
    await page.goto('/admin/sales/orders')
    await expect.poll(() => page.getByText('无权限').isVisible(), { timeout: 10_000 }).toBe(true)
    await settled(page)
    await shot(page, 'console-teacher-no-access-1280')
    const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('zx_token')!) as { token: string }).token)
    const res = await fetch(`${inject('baseUrl')}/api/admin/orders`, { headers: { 'zxb-token': token } })
    expect(res.status).toBe(403)
    await context.close()

    // A learner who signs in to the console sees 无权限 too.
    const learner = await consoleContext()
    await signInToConsole(learner.page, newPhone()).catch(() => undefined)
    await expect.poll(() => learner.page.getByText('无权限').isVisible(), { timeout: 10_000 }).toBe(true)
    await learner.context.close()
  })

  it('a first load asks for the console, its screen and who is signed in together', { timeout: 60_000 }, async () => {
    const { context, page } = await consoleAs(await signInOperator())
    const asked: string[] = []
    page.on('request', (r) => asked.push(new URL(r.url()).pathname))
    // The console's own chunk (antd and the layout) is held back: what the page asks for meanwhile does not wait
    // for it. Before, /api/admin/me came only once that chunk had run, and the screen's chunk once the layout drew.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(/\/assets\/console-app-[\w-]+\.js$/, async (route) => {
      await held
      await route.continue()
    })
    await page.goto('/admin/sales/orders')
    const early = () => asked.includes('/api/admin/me') && asked.some((p) => /^\/assets\/orders-[\w-]+\.js$/.test(p))
    await expect.poll(early, { timeout: 15_000 }).toBe(true)
    release()
    await expect
      .poll(() => page.getByRole('columnheader', { name: '订单号' }).isVisible(), { timeout: 15_000 })
      .toBe(true)
    // The layout took the answer asked early rather than asking again.
    expect(asked.filter((p) => p === '/api/admin/me')).toHaveLength(1)
    // Nor does React Router ask the server where the menu's links lead: every /admin address is the console's.
    await page.waitForLoadState('networkidle')
    expect(asked.filter((p) => p.startsWith('/__manifest'))).toEqual([])
    await context.close()
  })

  it('the staff screen at 1280×800', { timeout: 60_000 }, async () => {
    const admin = await signInOperator()
    await grantStaff(admin, ['operator', 'assistant'])
    const { context, page } = await consoleAs(admin)
    await page.goto('/admin/staff')
    await expect.poll(() => page.getByRole('table').isVisible(), { timeout: 10_000 }).toBe(true)
    await page.keyboard.press('/')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('搜索')
    await settled(page)
    await shot(page, 'console-staff-1280')
    await page.goto('/admin/staff/log')
    await expect.poll(() => page.getByRole('table').isVisible(), { timeout: 10_000 }).toBe(true)
    await settled(page)
    await shot(page, 'console-log-1280')
    await context.close()
  })
})
