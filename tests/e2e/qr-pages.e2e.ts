import QRCode from 'qrcode'
import { describe, expect, inject, it } from 'vitest'
import { shot } from './support/browser.ts'
import { call, openDevice, signInOperator } from './support/commerce.ts'

/**
 * /data/follow and /data/wwx (issue 14 §2): an operator uploads the two QR codes and their sentences in 客服设置;
 * learners see them on a phone, in WeChat with the long-press hint, and without the floating service button (spec 2:
 * hidden on paths containing /data).
 */
async function uploadQr(token: string, text: string) {
  const png = await QRCode.toBuffer(text, { width: 440, margin: 2 })
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'qr.png')
  const res = await fetch(`${inject('baseUrl')}/api/admin/images`, {
    method: 'POST',
    headers: { 'zxb-token': token },
    body: form,
  })
  const body = (await res.json()) as { code: number; msg: string; data: { url: string } }
  if (body.code !== 200) throw new Error(`upload: ${body.msg}`)
  return body.data.url
}

describe('the follow and WeCom QR pages', () => {
  it('shows the QR codes and sentences the operator set', { timeout: 90_000 }, async () => {
    const operator = await signInOperator()
    const current = await call<Record<string, unknown>>('GET', '/admin/settings/service', { token: operator })
    const { updated_at: _, ...values } = current.data
    const saved = await call('PUT', '/admin/settings/service', {
      token: operator,
      body: {
        ...values,
        follow_qr_image: await uploadQr(operator, 'https://mp.weixin.qq.com/zixue-follow'),
        follow_text: '关注“自学”公众号，直播开始前提醒你',
        wwx_qr_image: await uploadQr(operator, 'https://work.weixin.qq.com/u/zixue-teacher'),
        wwx_text: '加王老师企业微信，领 Excel 练习表',
      },
    })
    expect(saved.code).toBe(200)

    for (const wechat of [false, true]) {
      const { context, page } = await openDevice(wechat ? 'wechat' : 'phone')
      await page.goto('/data/follow')
      const follow = page.getByRole('img', { name: '自学公众号关注二维码' })
      await expect.poll(() => follow.isVisible(), { timeout: 15_000 }).toBe(true)
      expect(await page.getByText('关注“自学”公众号，直播开始前提醒你').isVisible()).toBe(true)
      expect(await page.getByText(wechat ? '长按二维码' : '截图保存二维码').isVisible()).toBe(true)
      expect(await page.getByRole('button', { name: /客服/ }).count()).toBe(0)
      await shot(page, `data-follow${wechat ? '-wechat' : ''}`)

      await page.goto('/data/wwx')
      const wwx = page.getByRole('img', { name: '老师的企业微信二维码' })
      await expect.poll(() => wwx.isVisible(), { timeout: 15_000 }).toBe(true)
      expect(await page.getByText('加王老师企业微信，领 Excel 练习表').isVisible()).toBe(true)
      expect(await page.getByRole('button', { name: /客服/ }).count()).toBe(0)
      await shot(page, `data-wwx${wechat ? '-wechat' : ''}`)
      await context.close()
    }
  })
})
