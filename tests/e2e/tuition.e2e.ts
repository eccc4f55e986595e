import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import { consoleAs, settled } from './support/console.ts'
import {
  answerCashier,
  call,
  courseByTitle,
  expectPaid,
  latestCode,
  newPhone,
  openDevice,
  payOnCheckout,
  signIn,
  signInOperator,
} from './support/commerce.ts'

/**
 * System courses (issue 15) on a phone at 390×844: a prospect leaves their number on /form/1; staff offer them the
 * programme under a deposit plan with a contract (API); the learner reads the whole contract, gets a signing code,
 * types their name, draws a signature and signs; pays the deposit through the WeChat Pay simulator; the programme
 * opens in /ke3, and the signed PDF is at /contract/see/{id}.
 */

/** Draws a signature (a few strokes) on the canvas with the touch-like mouse. */
async function drawSignature(page: Page) {
  const pad = page.getByLabel('手写签名区')
  await pad.scrollIntoViewIfNeeded()
  const box = (await pad.boundingBox())!
  await page.mouse.move(box.x + 30, box.y + 100)
  await page.mouse.down()
  for (const [x, y] of [
    [60, 40],
    [90, 110],
    [130, 50],
    [170, 120],
    [220, 60],
    [280, 100],
  ] as const)
    await page.mouse.move(box.x + x, box.y + y, { steps: 6 })
  await page.mouse.up()
}

describe('system course enrolment', () => {
  it('/contract without a contract: the empty state of the other lists and the way to the system courses', async () => {
    const { context, page } = await openDevice('wechat', await signIn())
    try {
      await page.goto('/contract')
      await expect
        .poll(() => page.getByText('还没有合同，报名体系课后在这里签署').isVisible(), { timeout: 15_000 })
        .toBe(true)
      // Drawn like the empty order list: the words centred in the column, a button under them.
      const words = (await page.getByText('还没有合同，报名体系课后在这里签署').boundingBox())!
      expect(Math.abs(words.x + words.width / 2 - 195)).toBeLessThan(2)
      await shot(page, 'tuition-contracts-empty')
      await page.getByRole('link', { name: '看看体系课' }).click()
      await page.waitForURL(/\/ke\?type=system$/)
    } finally {
      await context.close()
    }
  })

  it('form → offer → sign with a drawn signature → pay the deposit → /ke3', { timeout: 240_000 }, async () => {
    const phone = newPhone()
    const course = await courseByTitle('商业插画师系统班')

    // 1. The prospect leaves their number.
    const visitor = await openDevice('phone')
    await visitor.page.goto(`/form/1?course_id=${course.id}&course=${encodeURIComponent(course.title)}`)
    await visitor.page.getByLabel('姓名').fill('林小雨')
    await visitor.page.getByLabel('手机号').fill('12345')
    await visitor.page.getByRole('button', { name: '提交' }).click()
    await expect.poll(() => visitor.page.getByRole('alert').textContent()).toBe('手机号格式错误')
    await shot(visitor.page, 'tuition-form-error')
    await visitor.page.getByLabel('手机号').fill(phone)
    await visitor.page.getByRole('button', { name: '提交' }).click()
    await expect.poll(() => visitor.page.getByText('提交成功').isVisible(), { timeout: 10_000 }).toBe(true)
    await shot(visitor.page, 'tuition-form-done')
    await visitor.context.close()

    // 2. Staff see the lead and offer a deposit plan with a contract.
    const operator = await signInOperator()
    const leads = await call<{ list: { id: number; state: string }[] }>('GET', `/admin/leads?q=${phone}`, {
      token: operator,
    })
    expect(leads.data.list).toHaveLength(1)
    const plan = await call<{ id: number }>('POST', '/admin/tuition-plans', {
      token: operator,
      body: {
        course_id: course.id,
        title: '定金 500 元 + 尾款',
        kind: 'deposit',
        total_fen: 398000,
        deposit_fen: 50000,
        balance_due_days: 30,
        exit_fee_fen: 20000,
      },
    })
    const version = await call<{ id: number }>('POST', '/admin/contract-templates', {
      token: operator,
      body: {
        name: '系统班报名合同',
        title: '商业插画师系统班学员协议',
        body:
          '甲方：自学在线教育\n乙方：{{real_name}}（手机号 {{phone}}）\n\n一、课程内容\n乙方报名《{{course}}》，学习期 {{study_days}} 天。\n\n' +
          '二、学费\n学费方案：{{plan}}，总学费 {{total}}。缴费安排：{{schedule}}。\n\n三、休学\n学习期间可申请休学，累计不超过 {{max_pause_days}} 天，休学期间学习期顺延。\n\n' +
          '四、退费\n{{refund_rule}}\n\n五、其他\n本合同自乙方电子签署之日起生效，签约日期：{{date}}。',
      },
    })
    await call('POST', `/admin/contract-versions/${version.data.id}/publish`, { token: operator })
    const offered = await call<{ link: string; contract_id: number; enrolment_id: number }>(
      'POST',
      '/admin/enrolments/offer',
      {
        token: operator,
        body: { lead_id: leads.data.list[0]!.id, plan_id: plan.data.id, template_version_id: version.data.id },
      },
    )
    expect(offered.code, offered.msg).toBe(200)

    // 3. The learner signs in with that phone and signs the contract.
    const learner = await signIn(phone)
    const { context, page } = await openDevice('phone', learner)
    await page.goto(offered.data.link)
    await expect.poll(() => page.getByText('商业插画师系统班学员协议').isVisible(), { timeout: 15_000 }).toBe(true)
    await expect.poll(() => page.getByText(/总学费 3980 元/).isVisible()).toBe(true)
    await shot(page, 'tuition-contract-read')
    await page.getByLabel('真实姓名').fill('林小雨')
    // The toast keeps the masked phone number on one line at 390 px (antd-mobile breaks words anywhere). It shows
    // for 2 s: waited for from before the tap, so a busy machine cannot let it pass unseen.
    const sentTo = page.locator('.adm-toast-main', { hasText: '验证码已发送至' })
    const toastShown = sentTo.waitFor({ state: 'visible', timeout: 15_000 })
    await page.getByRole('button', { name: '获取验证码' }).click()
    await toastShown
    // The masked number's characters, measured where they are drawn: one line box, not two.
    const lines = await sentTo.evaluate((el) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.search(/\d{3}\*{4}\d{4}/)
        if (at < 0) continue
        const range = document.createRange()
        range.setStart(node, at)
        range.setEnd(node, at + 11)
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size
      }
      return 0
    })
    expect(lines).toBe(1)
    await shot(page, 'tuition-code-toast')
    await expect.poll(() => page.getByRole('button', { name: /^\d+s$/ }).isVisible()).toBe(true)
    await page.getByLabel(/短信验证码/).fill(await latestCode(phone, 'contract'))
    await drawSignature(page)
    await expect.poll(() => page.getByText('已签名', { exact: true }).isVisible()).toBe(true)
    await page.getByLabel(/我已完整阅读上述合同/).check()
    await shot(page, 'tuition-contract-signing')
    await page.getByRole('button', { name: '确认签署' }).click()
    await expect.poll(() => page.getByText('合同已签署').isVisible(), { timeout: 15_000 }).toBe(true)
    await shot(page, 'tuition-contract-signed')

    // 4. The deposit, through the WeChat Pay simulator.
    await page.getByRole('link', { name: '去缴费' }).click()
    await page.waitForURL(/\/PayAmount\?enrolment_id=/)
    await expect.poll(() => page.getByText('本次缴纳：定金').isVisible(), { timeout: 15_000 }).toBe(true)
    await shot(page, 'tuition-pay-deposit')
    await payOnCheckout(page, /微信/)
    await answerCashier(page)
    await expectPaid(page)

    // 5. The programme opens in /ke3; the schedule is in /order3; the signed PDF is at /contract/see/{id}.
    await page.goto('/ke3')
    await expect.poll(() => page.getByText('商业插画师系统班').first().isVisible(), { timeout: 15_000 }).toBe(true)
    await shot(page, 'tuition-ke3')
    await page.goto('/order3')
    await expect.poll(() => page.getByText(/定金（已缴）/).isVisible(), { timeout: 15_000 }).toBe(true)
    await expect.poll(() => page.getByText(/尾款（待缴）/).isVisible()).toBe(true)
    await shot(page, 'tuition-order3')
    await page.goto(`/contract/see/${offered.data.contract_id}`)
    await expect
      .poll(() => page.getByRole('link', { name: '下载合同 PDF' }).isVisible(), { timeout: 15_000 })
      .toBe(true)
    await shot(page, 'tuition-contract-see')
    const verified = await call<{ valid: boolean }>('GET', `/admin/contracts/${offered.data.contract_id}/verify`, {
      token: operator,
    })
    expect(verified.data.valid).toBe(true)

    // 6. Pause (休学), resume early, then exit (退学) after seeing what the contract gives back.
    await page.goto(`/course/pause/${offered.data.enrolment_id}`)
    await page.getByLabel(/休学天数/).fill('20')
    await page.getByRole('button', { name: '确认休学' }).click()
    await expect.poll(() => page.getByText('休学至').isVisible(), { timeout: 10_000 }).toBe(true)
    await shot(page, 'tuition-paused')
    await page.getByRole('button', { name: '提前复学' }).click()
    await expect.poll(() => page.getByRole('button', { name: '确认休学' }).isVisible(), { timeout: 10_000 }).toBe(true)
    await page.getByRole('button', { name: '查看可退金额' }).click()
    // 500 yuan paid; the day begun was the day paused (a pause counts at least one day), so none is used; 200 yuan fee.
    await expect
      .poll(() => page.getByRole('button', { name: '确认退学，退回 ¥300' }).isVisible(), { timeout: 10_000 })
      .toBe(true)
    await shot(page, 'tuition-exit-quote')
    await page.getByRole('button', { name: /确认退学/ }).click()
    await expect.poll(() => page.getByText(/已提交退学申请，可退 ¥300/).isVisible(), { timeout: 10_000 }).toBe(true)
    await shot(page, 'tuition-exit-requested')
    await context.close()

    // 7. The operator's leads list at 1280×800: the lead is offered.
    const desk = await consoleAs(operator)
    await desk.page.goto('/admin/tuition/leads')
    await expect.poll(() => desk.page.getByText(phone).isVisible(), { timeout: 15_000 }).toBe(true)
    await settled(desk.page)
    expect(await desk.page.getByText('已发报名').first().isVisible()).toBe(true)
    await shot(desk.page, 'tuition-console-leads')
    await desk.context.close()
  })
})
