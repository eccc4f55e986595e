import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { launchBrowser, shot } from './support/browser.ts'
import { call, courseByTitle, DESKTOP, openDevice, signIn, signInOperator, stepUpProof } from './support/commerce.ts'

/**
 * The console's engagement and sales screens (issue 13) at 1280×800: an operator adds an overlay with its preview
 * and a learner sees it on / at 390×844; a learner reports a comment and it heads the reported queue; a teacher
 * cannot open the sales screens and the API refuses them; an operator hides a comment from 评论管理.
 */

async function consoleAs(token: string): Promise<{ context: BrowserContext; page: Page }> {
  const browser = await launchBrowser()
  const context = await browser.newContext({ viewport: DESKTOP, locale: 'zh-CN', baseURL: inject('baseUrl') })
  await context.addInitScript((t) => {
    localStorage.setItem('zx_token', JSON.stringify({ token: t, expire: Date.now() + 3600_000 }))
  }, token)
  const page = await context.newPage()
  page.on('pageerror', (err) => {
    throw err
  })
  return { context, page }
}

async function settled(page: Page) {
  await expect.poll(() => page.locator('.ant-spin-spinning').count(), { timeout: 10_000 }).toBe(0)
}

describe('the console: engagement and sales', () => {
  it(
    'an operator adds an overlay, previewed as learners see it, and a learner sees it on /',
    { timeout: 120_000 },
    async () => {
      const admin = await signInOperator()
      // The learner's phone first: the demo's overlays are marked seen, so the new one is the one to show.
      const learner = await openDevice('phone')
      const { context, page } = await consoleAs(admin)
      await page.goto('/admin/engagement/overlays')
      await expect.poll(() => page.getByRole('table').isVisible(), { timeout: 10_000 }).toBe(true)
      await page.getByRole('button', { name: '新建弹窗' }).click()
      const drawer = page.locator('.ant-drawer')
      await drawer.getByLabel('标题').fill('寒假训练营开营')
      await drawer.getByLabel(/内容/).fill('<p>1 月 10 日开营，<b>前 100 名</b>送素材包。</p>')
      await drawer.getByLabel('按钮文字').fill('去看看')
      // The preview is the learner's own overlay component, inside a 390-wide phone.
      const phoneFrame = page.locator('.zx-console-phone-screen')
      await expect
        .poll(
          () =>
            phoneFrame
              .getByRole('dialog', { name: '寒假训练营开营' })
              .isVisible({ timeout: 500 })
              .catch(() => false),
          {
            timeout: 10_000,
          },
        )
        .toBe(true)
      expect(await phoneFrame.evaluate((el) => el.clientWidth)).toBe(390) // inside the 10 px bezel
      expect(await phoneFrame.getByRole('dialog').innerText()).toContain('前 100 名')
      await shot(page, 'console-overlay-preview-1280')
      await drawer
        .getByRole('button', { name: '保 存' })
        .or(drawer.getByRole('button', { name: '保存' }))
        .first()
        .click()
      await expect
        .poll(() => page.getByText(/已保存弹窗「寒假训练营开营」/).isVisible(), { timeout: 10_000 })
        .toBe(true)
      await expect.poll(() => page.getByRole('row').filter({ hasText: '寒假训练营开营' }).isVisible()).toBe(true)
      await settled(page)
      await shot(page, 'console-overlays-1280')
      await context.close()

      await learner.page.goto('/')
      const overlay = learner.page.getByTestId('system-overlay').getByRole('dialog', { name: '寒假训练营开营' })
      await expect.poll(() => overlay.isVisible(), { timeout: 10_000 }).toBe(true)
      await learner.page.waitForTimeout(300)
      await shot(learner.page, 'overlay-from-console-390')
      await learner.context.close()
      // Off again: journeys running meanwhile skip the overlays there were when they started, not this one.
      const listed = await call<{ list: { id: number; name: string }[] }>('GET', '/admin/overlays', { token: admin })
      const made = listed.data.list.find((o) => o.name === '寒假训练营开营')!
      const off = await call('PATCH', `/admin/overlays/${made.id}`, { token: admin, body: { active: false } })
      expect(off.code, off.msg).toBe(200)
    },
  )

  it('a learner reports a comment and it heads the reported queue', { timeout: 120_000 }, async () => {
    const [author, reporter, admin] = await Promise.all([signIn(), signIn(), signInOperator()])
    const course = await courseByTitle('AutoCAD 室内制图从入门到精通')
    const posted = await call<{ id: number }>('POST', '/comment', {
      token: author,
      body: { course_id: course.id, content: '加我微信领破解版软件 wx123456' },
    })
    expect(posted.code).toBe(200)

    // Its author has nothing to report on it (the server refuses a report of one's own comment).
    const own = await openDevice('phone', author)
    await own.page.goto(`/course/commentDetail?id=${posted.data.id}`)
    const mine = own.page.locator(`[data-comment-id="${posted.data.id}"]`)
    await expect.poll(() => mine.getByTestId('comment-like').isVisible(), { timeout: 10_000 }).toBe(true)
    expect(await mine.getByTestId('comment-report').count()).toBe(0)
    await own.context.close()

    const phone = await openDevice('phone', reporter)
    await phone.page.goto(`/course/commentDetail?id=${posted.data.id}`)
    const item = phone.page.locator(`[data-comment-id="${posted.data.id}"]`)
    await expect.poll(() => item.isVisible(), { timeout: 10_000 }).toBe(true)
    await item.getByTestId('comment-report').click()
    await phone.page.getByText('广告或引流').click()
    await expect.poll(() => phone.page.getByText('已收到你的举报').isVisible(), { timeout: 10_000 }).toBe(true)
    await shot(phone.page, 'comment-reported-390')
    await phone.context.close()

    const { context, page } = await consoleAs(admin)
    await page.goto('/admin/engagement/reports')
    const row = page.getByRole('row').filter({ hasText: 'wx123456' })
    await expect.poll(() => row.isVisible(), { timeout: 10_000 }).toBe(true)
    expect(await row.innerText()).toContain('广告或引流')
    await settled(page)
    await shot(page, 'console-reports-1280')
    // Keyboard: H hides the current (first, most reported) comment after a confirmation.
    await page.locator('body').click({ position: { x: 5, y: 400 } })
    const first = page.locator('tr.zx-console-current')
    await expect.poll(() => first.innerText()).toContain('wx123456')
    await page.keyboard.press('h')
    const confirm = page.getByRole('dialog', { name: '隐藏评论' })
    await expect.poll(() => confirm.isVisible()).toBe(true)
    await confirm.getByRole('button', { name: /隐\s*藏/ }).click()
    await expect.poll(() => page.getByText(`已隐藏评论 ${posted.data.id}`).isVisible(), { timeout: 10_000 }).toBe(true)
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0)
    await context.close()
  })

  it(
    'an operator finds a comment in 评论管理 and hides it with a reason; other learners stop seeing it',
    { timeout: 120_000 },
    async () => {
      const [author, other, admin] = await Promise.all([signIn(), signIn(), signInOperator()])
      const course = await courseByTitle('AutoCAD 室内制图从入门到精通')
      const text = `代写毕业设计私聊 qq${Date.now() % 1_000_000}`
      const posted = await call<{ id: number }>('POST', '/comment', {
        token: author,
        body: { course_id: course.id, content: text },
      })
      expect(posted.code, posted.msg).toBe(200)
      const listed = async (token: string) =>
        (await call<{ list: { id: number }[] }>('GET', `/comments?course_id=${course.id}`, { token })).data.list.map(
          (c) => c.id,
        )
      expect(await listed(other)).toContain(posted.data.id)

      const { context, page } = await consoleAs(admin)
      await page.goto('/admin/engagement/comments')
      await expect
        .poll(() => page.getByRole('menuitem', { name: '评论管理' }).isVisible(), { timeout: 10_000 })
        .toBe(true)
      await expect.poll(() => page.getByRole('row').nth(2).isVisible(), { timeout: 10_000 }).toBe(true)
      await settled(page)
      await page.waitForTimeout(400) // the table's loading fade
      await shot(page, 'console-comments')

      const search = page.locator('input[aria-label="搜索"]')
      await search.fill(text)
      await search.press('Enter')
      await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(text)
      const row = page.getByRole('row').filter({ hasText: text })
      await expect.poll(() => row.isVisible(), { timeout: 10_000 }).toBe(true)
      await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count(), { timeout: 10_000 }).toBe(1)
      expect(await row.innerText()).toContain('显示中')
      // Its author links to the member's console page.
      expect(await row.getByRole('link', { name: /学员/ }).getAttribute('href')).toMatch(/^\/admin\/members\/\d+$/)
      // A shown, public top-level comment: hide, pin, feature, delete; nothing a hidden one needs.
      expect(await row.getByText('恢复显示').count()).toBe(0)
      await row.getByText('隐藏', { exact: true }).click()
      const dialog = page.getByRole('dialog', { name: '隐藏评论' })
      await expect.poll(() => dialog.isVisible()).toBe(true)
      expect(await dialog.innerText()).toContain(text)
      await dialog.getByRole('button', { name: /隐\s*藏/ }).click()
      // The reason is required (2–200 characters): the dialog stays until one is given.
      await expect.poll(() => dialog.getByText('请填写处理原因').isVisible()).toBe(true)
      await dialog.getByLabel('处理原因').fill('站外引流，违反社区规范')
      await dialog.getByRole('button', { name: /隐\s*藏/ }).click()
      await expect.poll(() => page.getByText('隐藏评论：已完成').isVisible(), { timeout: 10_000 }).toBe(true)
      await expect.poll(() => row.innerText(), { timeout: 10_000 }).toContain('已隐藏')
      expect(await row.getByText('恢复显示').count()).toBe(1)
      await settled(page)
      await page.waitForTimeout(400)
      await shot(page, 'console-comments-hidden')

      // From the author's page in the console, their comments open in 评论管理, filtered to them.
      const authorPage = await row.getByRole('link', { name: /学员/ }).getAttribute('href')
      await page.goto(authorPage!)
      await page.getByRole('tab', { name: '评论' }).click()
      await page.getByRole('link', { name: '在评论管理中处理这位会员的评论' }).click()
      await expect.poll(() => new URL(page.url()).searchParams.get('member_id')).toBe(authorPage!.split('/').at(-1))
      const onlyMember = page.getByText(`只看会员 ${authorPage!.split('/').at(-1)} 的评论`)
      await expect.poll(() => onlyMember.isVisible(), { timeout: 10_000 }).toBe(true)
      await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count(), { timeout: 10_000 }).toBe(1)
      expect(await page.locator('.ant-table-tbody').innerText()).toContain(text)
      await settled(page)
      await page.waitForTimeout(400)
      await shot(page, 'console-comments-member')
      // Removing the filter lists every comment again.
      await onlyMember.locator('.ant-tag-close-icon').click()
      await expect.poll(() => new URL(page.url()).searchParams.get('member_id')).toBe(null)
      await expect
        .poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count(), { timeout: 10_000 })
        .toBeGreaterThan(1)
      // A member number typed into the address that is not one gives the whole list, not an error.
      await page.goto('/admin/engagement/comments?member_id=abc')
      // A full page load: the console's chunk loads again before the filter can drop the number.
      await expect.poll(() => new URL(page.url()).searchParams.get('member_id'), { timeout: 15_000 }).toBe(null)
      await expect
        .poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count(), { timeout: 10_000 })
        .toBeGreaterThan(1)
      expect(await page.getByText('只看会员').count()).toBe(0)
      await context.close()

      // Other learners no longer see it; its author still does; the console's list has it as hidden.
      expect(await listed(other)).not.toContain(posted.data.id)
      expect(await listed(author)).toContain(posted.data.id)
      const hidden = await call<{ list: { id: number; status: string }[] }>(
        'GET',
        `/admin/comments?status=hidden&q=${encodeURIComponent(text)}`,
        { token: admin },
      )
      expect(hidden.data.list).toEqual([expect.objectContaining({ id: posted.data.id, status: 'hidden' })])
    },
  )

  it('a teacher cannot open the sales screens, and the API refuses them', { timeout: 60_000 }, async () => {
    const admin = await signInOperator()
    const phoneNo = `16${String(Date.now()).slice(-8)}${process.pid % 10}`
    const granted = await call('POST', '/admin/staff', {
      token: admin,
      headers: { 'x-step-up': await stepUpProof(admin) },
      body: { phone: phoneNo, roles: ['teacher'] },
    })
    expect(granted.code).toBe(200)
    const teacher = await signIn(phoneNo)
    const { context, page } = await consoleAs(teacher)
    await page.goto('/admin/sales/coupons')
    await expect.poll(() => page.getByText('无权限').isVisible(), { timeout: 10_000 }).toBe(true)
    expect(await page.getByRole('menuitem', { name: '优惠券' }).count()).toBe(0)
    await shot(page, 'console-teacher-coupons-1280')
    for (const path of ['/admin/coupons', '/admin/coupon-templates', '/admin/vip-plans', '/admin/points/ledger']) {
      const res = await fetch(`${inject('baseUrl')}/api${path}`, { headers: { 'zxb-token': teacher } })
      expect(res.status, path).toBe(403)
    }
    await context.close()

    // The sales screens as an operator sees them.
    const op = await consoleAs(admin)
    for (const [path, name] of [
      ['/admin/sales/coupons', 'console-coupons-1280'],
      ['/admin/sales/vip-plans', 'console-vip-plans-1280'],
      ['/admin/sales/points', 'console-points-1280'],
      ['/admin/engagement/service', 'console-service-1280'],
    ] as const) {
      await op.page.goto(path)
      await expect
        .poll(() => op.page.locator('.ant-table, .ant-card').first().isVisible(), { timeout: 10_000 })
        .toBe(true)
      await settled(op.page)
      await shot(op.page, name)
    }
    await op.context.close()
  })
})
