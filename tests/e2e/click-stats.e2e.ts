import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { apiData, openDevice, signIn, type DeviceKind } from './support/commerce.ts'
import { quickTap } from './support/browser.ts'

/**
 * Issue 10 §4: the spec's click statistics leave from the controls they name, as beacons (text/plain, never
 * holding up the navigation), with `position` where the spec gives one. bindPhone is sent by the bind button of
 * the bind-phone form (checked in wechat-journey.e2e.ts, where a WeChat member binds a phone).
 */

interface Sent {
  name: string
  body: { position?: number | string; page?: string; token?: string }
  type: string
}

function record(page: Page): Sent[] {
  const sent: Sent[] = []
  page.on('request', (req) => {
    const m = /\/api\/stat\/(\w+)\/click$/.exec(new URL(req.url()).pathname)
    if (!m) return
    sent.push({
      name: m[1]!,
      body: JSON.parse(req.postData() ?? '{}') as Sent['body'],
      type: req.headers()['content-type'] ?? '',
    })
  })
  return sent
}

const names = (sent: Sent[]) => sent.map((s) => s.name)

describe.each<DeviceKind>(['phone', 'wechat'])('click statistics (%s)', (kind) => {
  it('sends studyRecord, fav, vipTarbar, vipBuyBtn, myCourse, project, courseDetailTag and customer', async () => {
    const token = await signIn()
    const { context, page } = await openDevice(kind, token)
    await context.route('https://work.weixin.qq.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>客服</title>' }),
    )
    const sent = record(page)

    await page.goto('/mine')
    await page.getByRole('link', { name: '学习记录' }).click()
    await page.waitForURL(/\/studyRecord$/)
    await page.goto('/mine')
    await page.getByRole('link', { name: '我的收藏' }).click()
    await page.waitForURL(/\/myCollection$/)
    await page.goto('/mine')
    const tabs = page.getByRole('navigation', { name: '主导航' })
    await tabs.getByRole('link', { name: '会员' }).click()
    await page.waitForURL(/\/vip$/)
    await page
      .getByRole('link', { name: /立即开通|开通会员/ })
      .last()
      .click()
    await page.waitForURL(/\/vipBuy/)
    await page.goto('/mine')
    await tabs.getByRole('link', { name: '已购' }).click()
    await page.waitForURL(/\/ke1$/)

    const courses = await apiData<{ list: { id: number; title: string }[] }>('/v2/course_list?limit=5')
    await page.goto('/ke')
    await page
      .getByRole('link', { name: new RegExp(courses.list[0]!.title) })
      .first()
      .click()
    await page.waitForURL(/\/course\/\d+\.html$/)
    await page.getByRole('navigation', { name: '页面目录' }).getByRole('link', { name: '评论' }).click()

    const service = page.getByTestId('service-button').getByRole('button', { name: '联系客服' })
    const box = (await service.boundingBox())!
    // Outside WeChat the chat opens in a new tab; inside, in place (service-button.tsx openExternal).
    const opened = kind === 'wechat' ? page.waitForURL(/work\.weixin\.qq\.com/) : context.waitForEvent('page')
    await quickTap(page, Math.min(box.x + box.width / 2, 386), box.y + box.height / 2)
    await opened

    await expect
      .poll(() => names(sent))
      .toEqual(['studyRecord', 'fav', 'vipTarbar', 'vipBuyBtn', 'myCourse', 'project', 'courseDetailTag', 'customer'])
    const by = (n: string) => sent.find((s) => s.name === n)!
    expect(by('vipTarbar').body.position).toBe(1)
    expect(by('myCourse').body.position).toBe(1)
    expect(by('customer').body.position).toBe(3)
    expect(by('courseDetailTag').body.position).toBe('comments')
    for (const s of sent) {
      expect(s.type, s.name).toMatch(/^text\/plain/)
      expect(s.body.token, s.name).toBe(token)
    }
    await context.close()
  })
})
