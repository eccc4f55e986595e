import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import { call, courseByTitle, latestCode, newPhone, signIn, signInOperator } from './support/commerce.ts'
import { consoleAs, settled } from './support/console.ts'

/**
 * The system-course console (issue 15) at 1280×800: an operator creates a deposit plan (the form refuses a deposit
 * above the tuition with the API's own message), writes a contract template, previews it and publishes it; a
 * learner is offered the programme and signs (API); the operator finds the enrolment, extends the balance's due
 * date with a reason (shown with who in the event log) and verifies the signed PDF.
 */
describe('the system-course console', () => {
  it('plan → template published → enrolment → due date extended', { timeout: 180_000 }, async () => {
    const course = await courseByTitle('商业插画师系统班')
    const operator = await signInOperator()
    const { context, page } = await consoleAs(operator)
    const stamp = String(Date.now()).slice(-5)
    const planTitle = `定金 800 + 尾款 ${stamp}`

    // 1. 学费方案: a deposit plan, the deposit first typed above the tuition.
    await page.goto(`/admin/tuition/plans?course_id=${course.id}`)
    await expect.poll(() => page.getByRole('heading', { name: '学费方案' }).isVisible(), { timeout: 15_000 }).toBe(true)
    await page.getByRole('button', { name: '新建方案' }).click()
    const planDialog = page.getByRole('dialog').filter({ hasText: '新建学费方案' })
    await planDialog.getByLabel('方案名称').fill(planTitle)
    await planDialog.getByLabel('总学费（元）').fill('4980')
    await planDialog.getByLabel('定金（元）').fill('5000')
    await planDialog.getByLabel('退学手续费（元）').fill('200')
    await planDialog.getByRole('button', { name: /^保\s?存$/ }).click()
    await expect.poll(() => planDialog.getByText('定金须大于 0 且小于总学费').isVisible()).toBe(true)
    await planDialog.getByLabel('定金（元）').fill('800')
    await planDialog.getByLabel('允许支付宝花呗分期').click()
    await planDialog.getByLabel('6 期').check()
    await planDialog.getByLabel('12 期').check()
    await page.waitForTimeout(500)
    await shot(page, 'console-tuition-plan-form-1280')
    await planDialog.getByRole('button', { name: /^保\s?存$/ }).click()
    const planRow = page.getByRole('row').filter({ hasText: planTitle })
    await expect.poll(() => planRow.isVisible(), { timeout: 10_000 }).toBe(true)
    expect(await planRow.innerText()).toMatch(/¥4980\.00[\s\S]*定金 ¥800\.00，尾款 30 天内[\s\S]*6\/12 期/)
    await settled(page)
    await shot(page, 'console-tuition-plans-1280')

    // 2. 合同模板: a new template, previewed with its placeholders filled, then published.
    const templateName = `系统班协议 ${stamp}`
    await page.getByRole('menuitem', { name: '合同模板' }).click()
    await page.waitForURL(/\/admin\/tuition\/contracts$/)
    await page.getByRole('button', { name: '新建模板' }).click()
    const tplDialog = page.getByRole('dialog').filter({ hasText: '新建合同模板' })
    await tplDialog.getByLabel('模板名称').fill(templateName)
    await tplDialog.getByLabel('合同标题').fill('商业插画师系统班学员协议')
    await tplDialog
      .getByLabel('合同正文')
      .fill(
        '甲方：自学在线教育\n乙方：{{real_name}}（手机号 {{phone}}）\n乙方报名《{{course}}》，学费方案：{{plan}}，' +
          '总学费 {{total}}。\n缴费安排：{{schedule}}\n退费规则：{{refund_rule}}\n签约日期：{{date}}',
      )
    await tplDialog.getByRole('button', { name: /^预\s?览$/ }).click()
    const preview = page.getByRole('dialog').filter({ hasText: '合同预览' })
    await expect
      .poll(() => preview.getByText(/乙方：张小明（手机号 13800138000）/).isVisible(), { timeout: 10_000 })
      .toBe(true)
    await page.waitForTimeout(500) // the dialog's opening animation
    await shot(page, 'console-tuition-template-preview-1280')
    await preview.locator('.ant-modal-close').click()
    await tplDialog.getByRole('button', { name: '保存草稿' }).click()
    const draft = page.getByRole('row').filter({ hasText: '草稿' }).filter({ hasText: '商业插画师系统班学员协议' })
    await expect.poll(() => draft.first().isVisible(), { timeout: 10_000 }).toBe(true)
    await draft.first().getByText('发布', { exact: true }).click()
    const confirm = page.getByRole('dialog').filter({ hasText: `发布「${templateName}」第 1 版？` })
    expect(await confirm.innerText()).toContain('永远不能再修改')
    await confirm.getByRole('button', { name: /^发\s?布$/ }).click()
    const published = page
      .getByRole('row')
      .filter({ hasText: '已发布' })
      .filter({ hasText: '商业插画师系统班学员协议' })
    await expect.poll(() => published.first().isVisible(), { timeout: 10_000 }).toBe(true)
    // A published version is read-only: 查看 and 新建版本, no 编辑.
    expect(await published.first().getByText('编辑', { exact: true }).count()).toBe(0)
    expect(await published.first().getByText('新建版本').isVisible()).toBe(true)
    await settled(page)
    await shot(page, 'console-tuition-templates-1280')

    // 3. A learner is offered the plan and signs the contract (API, as the learner's pages do).
    const plans = await call<{ list: { id: number; title: string }[] }>(
      'GET',
      `/admin/tuition-plans?course_id=${course.id}`,
      {
        token: operator,
      },
    )
    const planId = plans.data.list.find((p) => p.title === planTitle)!.id
    const templates = await call<{ list: { name: string; versions: { id: number }[] }[] }>(
      'GET',
      '/admin/contract-templates',
      {
        token: operator,
      },
    )
    const versionId = templates.data.list.find((t) => t.name === templateName)!.versions[0]!.id
    const phone = newPhone()
    const offered = await call<{ contract_id: number }>('POST', '/admin/enrolments/offer', {
      token: operator,
      body: { phone, plan_id: planId, template_version_id: versionId },
    })
    expect(offered.code, offered.msg).toBe(200)
    const learner = await signIn(phone)
    // A signature as the signing page sends it: a PNG drawn on a canvas.
    const signature = await page.evaluate(() => {
      const canvas = document.createElement('canvas')
      canvas.width = 240
      canvas.height = 100
      const pen = canvas.getContext('2d')!
      pen.lineWidth = 4
      pen.moveTo(20, 70)
      pen.bezierCurveTo(60, 10, 120, 120, 220, 30)
      pen.stroke()
      return canvas.toDataURL('image/png')
    })
    expect((await call('POST', '/contract/send_code', { token: learner, body: {} })).code).toBe(200)
    const agreed = await call('POST', '/contract/agree', {
      token: learner,
      body: {
        id: offered.data.contract_id,
        code: await latestCode(phone, 'contract'),
        real_name: '林小雨',
        agree: true,
        signature,
      },
    })
    expect(agreed.code, agreed.msg).toBe(200)

    // 4. 报名学员: found by name, opened, the balance's due date extended with a reason.
    await page.getByRole('menuitem', { name: '报名学员' }).click()
    await page.waitForURL(/\/admin\/tuition\/enrolments$/)
    await page.getByLabel('搜索').fill(phone)
    await page.getByLabel('搜索').press('Enter')
    const row = page.getByRole('row').filter({ hasText: '林小雨' })
    await expect.poll(() => row.isVisible(), { timeout: 10_000 }).toBe(true)
    expect(await row.innerText()).toMatch(/已签约[\s\S]*¥0\.00 \/ ¥4980\.00/)
    await settled(page)
    await shot(page, 'console-tuition-enrolments-1280')
    await row.click()
    const drawer = page.getByRole('dialog').filter({ hasText: '缴费计划' })
    await expect.poll(() => drawer.isVisible(), { timeout: 10_000 }).toBe(true)
    const balance = drawer.locator('.ant-table-row').filter({ hasText: '尾款' })
    expect(await balance.innerText()).toMatch(/¥4180\.00[\s\S]*待缴/)
    await balance.getByText('延期').click()
    const extend = page.getByRole('dialog').filter({ hasText: '延期：尾款' })
    await extend.getByLabel('新的到期时间（北京时间）').fill('2030-03-01T20:00')
    await extend.getByRole('button', { name: '确认延期' }).click()
    await expect.poll(() => extend.getByText('请填写延期原因').isVisible()).toBe(true)
    await extend.getByLabel('延期原因').fill('学员出差两周，尾款顺延')
    await extend.getByRole('button', { name: '确认延期' }).click()
    await expect
      .poll(() => drawer.getByText('延至 2030/3/1 20:00，原因：学员出差两周，尾款顺延').isVisible(), {
        timeout: 10_000,
      })
      .toBe(true)
    expect(await drawer.getByText(/员工 \d+/).count()).toBeGreaterThan(0)
    expect(await balance.innerText()).toContain('2030/3/1 20:00')

    // The signed contract: its hash verified on the server.
    await drawer.getByRole('button', { name: /^校\s?验$/ }).click()
    await expect
      .poll(() => page.getByText('校验通过：合同文件与签署时的 SHA-256 一致').isVisible(), { timeout: 10_000 })
      .toBe(true)
    await settled(page)
    await shot(page, 'console-tuition-enrolment-1280')
    await context.close()
  })
})
