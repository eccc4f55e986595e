import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import {
  answerCashier,
  courseByTitle,
  expectPaid,
  expectPlaysPastPreview,
  openDevice,
  orderState,
  payOnCheckout,
  playableUntil,
  previewLesson,
  readQr,
  signIn,
  signInWithWechat,
} from './support/commerce.ts'

/**
 * WeChat Pay the two ways that do not leave for a cashier page of their own (issue 4): JSAPI inside WeChat's
 * in-app browser (WeixinJSBridge's pay sheet, here the simulator's stand-in) and Native on a desktop (a QR code
 * that a phone scans, the page moving on by itself once the order is paid).
 */

describe('WeChat Pay JSAPI inside WeChat', () => {
  it(
    'a member signed in with WeChat pays in the bridge sheet and the course plays past the preview',
    { timeout: 90_000 },
    async () => {
      const course = await courseByTitle('Illustrator 矢量图形设计')
      const lesson = previewLesson(course)
      const { context, page } = await openDevice('wechat')
      const token = await signInWithWechat(page, `微信学员${Date.now() % 10_000}`)
      expect(await playableUntil(token, lesson.id)).toBe(lesson.free_seconds)

      await page.goto(`/course/coursePurchase?course_id=${course.id}`)
      await expect.poll(() => page.getByText(course.title).first().isVisible(), { timeout: 15_000 }).toBe(true)
      // Inside WeChat there is one method, JSAPI: no H5 page, no Alipay (WeChat blocks it).
      const methods = page.getByRole('radio')
      expect(await methods.count()).toBe(1)
      expect(await page.getByRole('radio', { name: /微信支付.*在微信内直接支付/ }).isChecked()).toBe(true)
      await shot(page, 'commerce-jsapi-checkout')

      const bridgeLoaded = page.waitForResponse(
        (r) => r.url().endsWith('/__sim/wechatpay/bridge.js') && r.status() === 200,
      )
      await payOnCheckout(page)
      await bridgeLoaded
      // The bridge's pay sheet opens over the page with the server-signed request (a bad paySign would be refused).
      const sheet = page.frameLocator('iframe[title="微信支付"]')
      await expect
        .poll(() => sheet.getByRole('button', { name: '确认支付' }).isVisible(), { timeout: 15_000 })
        .toBe(true)
      expect(await sheet.getByText((course.price_fen / 100).toFixed(2)).isVisible()).toBe(true)
      expect(page.url()).toContain('/course/coursePurchase')
      await shot(page, 'commerce-jsapi-sheet')
      await sheet.getByRole('button', { name: '确认支付' }).click()

      await page.waitForURL(/\/payRedirect\?order_no=|\/PaymentSuccessful\?order_no=/, { timeout: 15_000 })
      const orderNo = await expectPaid(page)
      expect(await page.getByRole('region', { name: '订单信息' }).innerText()).toMatch(/支付方式\s*微信支付/)
      await shot(page, 'commerce-jsapi-result')
      const order = await orderState(token, orderNo)
      expect(order).toMatchObject({ state: 'paid', pay_method: 'wechat_jsapi', amount_fen: course.price_fen })

      expect(await playableUntil(token, lesson.id)).toBeNull()
      await expectPlaysPastPreview(page, lesson)
      await shot(page, 'commerce-jsapi-playing')
      await context.close()
    },
  )
})

describe('WeChat Pay Native on a desktop', () => {
  it(
    'shows a QR code for code_url; once a phone pays it, the page moves on to the result by itself',
    { timeout: 90_000 },
    async () => {
      const token = await signIn()
      const course = await courseByTitle('C4D 三维电商场景入门')
      const lesson = previewLesson(course)
      const desktop = await openDevice('desktop', token)
      const { page } = desktop

      await page.goto(`/course/coursePurchase?course_id=${course.id}`)
      await expect.poll(() => page.getByText(course.title).first().isVisible(), { timeout: 15_000 }).toBe(true)
      expect(await page.getByRole('radio').count()).toBe(1)
      expect(await page.getByRole('radio', { name: /微信扫码支付/ }).isChecked()).toBe(true)
      await shot(page, 'commerce-native-checkout')
      await payOnCheckout(page)

      const dialog = page.getByRole('dialog', { name: '微信扫码支付' })
      await expect
        .poll(() => dialog.getByRole('img', { name: '支付二维码' }).isVisible(), { timeout: 15_000 })
        .toBe(true)
      await shot(page, 'commerce-native-qr')
      // The QR code is the order's code_url, which the simulator's "scan" page opens on the phone.
      const codeUrl = await readQr(page, 'img[alt="支付二维码"]')
      expect(codeUrl).toMatch(/\/__sim\/wechatpay\/scan\?pr=[\w-]+$/)

      const phone = await openDevice('wechat', token)
      await phone.page.goto(codeUrl!)
      await shot(phone.page, 'commerce-native-phone-cashier')
      await answerCashier(phone.page)
      await expect.poll(() => phone.page.getByText('支付成功').isVisible(), { timeout: 10_000 }).toBe(true)
      await phone.context.close()

      // No tap on the desktop: its poll sees the order paid and moves on.
      const orderNo = await expectPaid(page)
      await shot(page, 'commerce-native-result')
      expect(await orderState(token, orderNo)).toMatchObject({ state: 'paid', pay_method: 'wechat_native' })
      expect(await playableUntil(token, lesson.id)).toBeNull()
      await desktop.context.close()
    },
  )
})
