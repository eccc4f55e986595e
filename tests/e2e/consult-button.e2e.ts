import { describe, expect, it } from 'vitest'
import { quickTap, shot } from './support/browser.ts'
import { openDevice, type DeviceKind } from './support/commerce.ts'

const CONSULT_URL = 'https://work.weixin.qq.com/kfid/kfc-zixue-consult'

/** Issue 10 §4: spec 2's second "consult" button on system courses and VIP, opening its own service link. */
describe.each<DeviceKind>(['phone', 'wechat'])('the consult button (%s)', (kind) => {
  it('shows on system course and VIP screens, not elsewhere, and opens the consult link', async () => {
    const { context, page } = await openDevice(kind)
    await context.route('https://work.weixin.qq.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>咨询</title>' }),
    )
    const consult = page.getByRole('button', { name: '课程咨询' })
    for (const path of ['/', '/mine', '/course/coursePurchase']) {
      await page.goto(path)
      await page.waitForTimeout(300)
      expect(await consult.count(), path).toBe(0)
    }
    for (const path of ['/vip', '/course/systemGroup', '/course/systemCourse']) {
      await page.goto(path)
      await expect.poll(() => consult.isVisible(), { message: path }).toBe(true)
    }
    // On the system course page the service button hides (spec 2) and the consult button rests at about 78%.
    expect(await page.getByRole('button', { name: '联系客服' }).count()).toBe(0)
    await page.waitForTimeout(400)
    await shot(page, `consult-system-course-${kind}`)
    const box = (await consult.boundingBox())!
    expect(box.y).toBeGreaterThan(844 * 0.6)
    expect(box.y + box.height).toBeLessThan(844)
    const opened = kind === 'wechat' ? page.waitForURL(CONSULT_URL) : context.waitForEvent('page')
    await quickTap(page, Math.min(box.x + box.width / 2, 386), box.y + box.height / 2)
    const target = await opened
    expect(kind === 'wechat' ? page.url() : (target as { url: () => string }).url()).toBe(CONSULT_URL)
    await context.close()
  })
})
