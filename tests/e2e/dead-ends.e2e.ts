import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import {
  answerCashier,
  apiData,
  buyWithH5,
  call,
  courseByTitle,
  expectPaid,
  openDevice,
  signIn,
  type DeviceKind,
} from './support/commerce.ts'

/**
 * No dead ends on the way to paying and learning (issue 10 §1), at 390×844 in a phone browser and inside WeChat:
 * 继续支付 reopens payment of a favourites order and 去学习 goes on to learning; an unknown order offers the order
 * list; a VIP-free course can be bought on its own; a system course stays for sale to a member who bought one of
 * its courses.
 */

describe.each<DeviceKind>(['phone', 'wechat'])('dead ends removed (%s)', (kind) => {
  it('继续支付 on a pending favourites order pays that order; 去学习 then opens the learning list', async () => {
    const token = await signIn()
    const courses = await Promise.all(['Excel 函数与公式实战', 'PPT 设计美化：从丑到高级'].map((t) => courseByTitle(t)))
    for (const c of courses)
      expect((await call('POST', '/course/fav', { token, body: { course_id: c.id } })).code).toBe(200)
    const placed = await call<{ order_no: string; state: string }>('POST', '/fav/pay', {
      token,
      body: { pay_method: 'wechat_h5' },
    })
    expect(placed.data.state).toBe('pending')
    const orderNo = placed.data.order_no

    const { context, page } = await openDevice(kind, token)
    await page.goto(`/order/${orderNo}`)
    const resume = page.getByRole('button', { name: '继续支付' })
    await expect.poll(() => resume.isVisible(), { timeout: 15_000 }).toBe(true)
    await shot(page, `dead-ends-continue-${kind}`)
    await resume.click()
    await answerCashier(page)
    expect(await expectPaid(page)).toBe(orderNo)
    const learn = page.getByRole('link', { name: '去学习' })
    await expect.poll(() => learn.getAttribute('href'), { timeout: 10_000 }).toBe('/ke1')
    const owned = await apiData<{ owned: number[] }>(`/course/owned?ids=${courses.map((c) => c.id).join(',')}`, token)
    expect(owned.owned.sort()).toEqual(courses.map((c) => c.id).sort())
    await context.close()
  })

  it('an unknown order offers the order list, not 重试', async () => {
    const { context, page } = await openDevice(kind, await signIn())
    await page.goto('/order/ZX20261125000000000')
    await expect.poll(() => page.getByText('订单不存在').isVisible(), { timeout: 15_000 }).toBe(true)
    expect(await page.getByRole('button', { name: '重试' }).count()).toBe(0)
    await page.getByRole('link', { name: '查看我的订单' }).click()
    await page.waitForURL((url) => url.pathname === '/order')
    await page.goto('/PaymentSuccessful?order_no=ZX20261125000000000')
    await expect
      .poll(() => page.getByRole('link', { name: '查看我的订单' }).isVisible(), { timeout: 15_000 })
      .toBe(true)
    expect(await page.getByRole('button', { name: '重试' }).count()).toBe(0)
    await shot(page, `dead-ends-no-order-${kind}`)
    await context.close()
  })

  it('a VIP-free course is also for sale on its own; a system course stays for sale after buying one of its courses', async () => {
    const token = await signIn()
    const vipFree = await courseByTitle('水彩花卉入门')
    const { context, page } = await openDevice(kind, token)
    await page.goto(`/course/${vipFree.id}.html`)
    const alone = page.getByRole('link', { name: /^单独购买 ¥/ })
    await expect.poll(() => alone.isVisible(), { timeout: 15_000 }).toBe(true)
    expect(await page.getByRole('link', { name: 'VIP 免费学' }).isVisible()).toBe(true)
    await shot(page, `dead-ends-vip-free-${kind}`)
    await alone.click()
    await page.waitForURL(new RegExp(`/course/coursePurchase\\?course_id=${vipFree.id}$`))
    await expect
      .poll(() => page.getByRole('button', { name: /^立即支付 ¥/ }).isVisible(), { timeout: 15_000 })
      .toBe(true)

    // Bought one of 平面设计师系统班's courses on its own: the programme is still for sale.
    const part = await courseByTitle('Photoshop 零基础入门')
    await buyWithH5(page, token, '/pay/course', { course_id: part.id })
    const list = await apiData<{ list: { id: number; title: string }[] }>('/v2/course_list?limit=50')
    const system = list.list.find((c) => c.title === '平面设计师系统班')!
    await page.goto(`/course/${system.id}.html`)
    await expect.poll(() => page.getByRole('link', { name: /^立即购买 ¥/ }).isVisible(), { timeout: 15_000 }).toBe(true)
    expect(await page.getByRole('link', { name: '查看学习计划' }).count()).toBe(0)
    await shot(page, `dead-ends-system-${kind}`)
    await context.close()
  })
})
