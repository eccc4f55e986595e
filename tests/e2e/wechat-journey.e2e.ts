import type { Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { shot } from './support/browser.ts'
import {
  apiData,
  buyWithH5,
  call,
  courseByTitle,
  expectPaid,
  openDevice,
  payOnCheckout,
  playableUntil,
  previewLesson,
  signInWithWechat,
} from './support/commerce.ts'

/**
 * WeChat: one learner, any way in (issue 10 §3, §7), at 390×844 under WeChat's user agent, against the real
 * server with its WeChat OAuth and WeChat Pay simulators.
 */

const toast = (page: Page, text: string) => page.locator('.adm-toast-main', { hasText: text })

let seq = 0
function newPhone() {
  seq++
  return `17${String(Date.now()).slice(-7)}${String(process.pid % 10)}${seq % 10}`
}

async function latestCode(phone: string, purpose: 'login' | 'bind') {
  const outbox = await apiData<{ list: { code: string; purpose: string; sent_at: string }[] }>(
    `/dev/outbox?phone=${phone}`,
  )
  const mine = outbox.list.filter((m) => m.purpose === purpose).sort((a, b) => b.sent_at.localeCompare(a.sent_at))
  if (!mine[0]) throw new Error(`no ${purpose} code for ${phone}`)
  return mine[0].code
}

async function tokenOf(page: Page) {
  const raw = await page.evaluate(() => localStorage.getItem('zx_token'))
  return raw ? (JSON.parse(raw) as { token: string }).token : null
}

/** Signs in with the phone and its SMS code in the login popup, as a learner does. */
async function phoneLoginInPopup(page: Page, phone: string) {
  await page.getByRole('button', { name: '登录 / 注册' }).click()
  const popup = page.getByTestId('login-popup')
  await expect.poll(() => popup.isVisible()).toBe(true)
  await popup.getByPlaceholder('请输入手机号').fill(phone)
  await popup.getByTestId('send-code').click()
  await expect.poll(() => toast(page, '已发送验证码').isVisible(), { timeout: 10_000 }).toBe(true)
  await popup.getByPlaceholder('请输入验证码').fill(await latestCode(phone, 'login'))
  // Some sign-in screens ask for agreement to the terms first (issue 10 §5).
  const agree = popup.getByRole('checkbox')
  if ((await agree.count()) > 0 && !(await agree.first().isChecked())) await agree.first().check()
  await popup.getByRole('button', { name: '登录', exact: true }).click()
}

describe('WeChat sign-in → bind phone → merge with the phone’s member', () => {
  it(
    'keeps the course the phone member bought, in one member, signed in with the new token',
    { timeout: 120_000 },
    async () => {
      const course = await courseByTitle('PPT 设计美化：从丑到高级')
      const lesson = previewLesson(course)
      // A learner who bought with their phone in an ordinary browser.
      const phone = newPhone()
      await call('POST', '/send_code', { body: { phone } })
      const login = await call<{ token: string }>('POST', '/login', {
        body: { phone, phone_code: await latestCode(phone, 'login'), platform: 2 },
      })
      const phoneToken = login.data.token
      const loginCodeAt = Date.now()
      const buyer = await openDevice('phone', phoneToken)
      await buyWithH5(buyer.page, phoneToken, '/pay/course', { course_id: course.id })
      expect(await playableUntil(phoneToken, lesson.id)).toBeNull()
      const phoneMember = (await apiData<{ member_id: number }>('/userinfo', phoneToken)).member_id
      await buyer.context.close()

      // The same learner later opens the site inside WeChat and signs in with WeChat: a second, empty member.
      const { context, page } = await openDevice('wechat')
      const wechatToken = await signInWithWechat(page, `合并同学${Date.now() % 10_000}`, '/headPortrait')
      expect(await playableUntil(wechatToken, lesson.id)).toBe(lesson.free_seconds)

      // /headPortrait offers to bind a phone.
      const form = page.getByRole('form', { name: '绑定手机号' })
      await expect.poll(() => form.isVisible(), { timeout: 15_000 }).toBe(true)
      expect(await page.getByText('未绑定，去绑定').isVisible()).toBe(true)
      await shot(page, 'wechat-bind-phone-form')
      await form.getByPlaceholder('请输入手机号').fill(phone)
      // One SMS a minute per phone, whatever it is for: wait out the minute since the login code.
      await page.waitForTimeout(Math.max(0, 61_000 - (Date.now() - loginCodeAt)))
      await form.getByTestId('bind-send-code').click()
      // The phone belongs to a member: the form says the two will become one before any code is entered.
      await expect.poll(() => form.getByRole('note').isVisible(), { timeout: 10_000 }).toBe(true)
      expect(await form.getByRole('note').innerText()).toContain('两个账号将合并为一个')
      await form.getByPlaceholder('请输入验证码').fill(await latestCode(phone, 'bind'))
      await shot(page, 'wechat-bind-phone-merge-notice')
      // The bind button sends the spec's bindPhone click statistic (a beacon).
      const stats: string[] = []
      page.on('request', (req) => {
        const m = /\/api\/stat\/(\w+)\/click$/.exec(new URL(req.url()).pathname)
        if (m) stats.push(m[1]!)
      })
      await form.getByRole('button', { name: '验证并合并账号' }).click()
      await expect.poll(() => toast(page, '账号已合并').isVisible(), { timeout: 10_000 }).toBe(true)
      expect(stats).toContain('bindPhone')
      await shot(page, 'wechat-bind-phone-merged')

      // One member now: the browser holds a new token for the phone member; the WeChat session has ended.
      await expect.poll(() => tokenOf(page)).not.toBe(wechatToken)
      const merged = (await tokenOf(page))!
      const me = await apiData<{ member_id: number; has_phone: boolean; wechat_bound: boolean }>('/userinfo', merged)
      expect(me).toMatchObject({ member_id: phoneMember, has_phone: true, wechat_bound: true })
      expect((await call('GET', '/userinfo', { token: wechatToken })).code).toBe(301)
      await expect.poll(() => page.getByText('未绑定，去绑定').count()).toBe(0)

      // Course access kept: the lesson plays in full, and the course is in 已购.
      expect(await playableUntil(merged, lesson.id)).toBeNull()
      await page.goto('/ke1')
      await expect.poll(() => page.getByText(course.title).first().isVisible(), { timeout: 15_000 }).toBe(true)
      await shot(page, 'wechat-merged-purchased')
      await context.close()
    },
  )
})

describe('phone sign-in inside WeChat → JSAPI pay', () => {
  it(
    'shows 登录成功！ ≥1.5 s, links the openid silently (base scope) and pays with the bridge',
    { timeout: 120_000 },
    async () => {
      const course = await courseByTitle('Excel 函数与公式实战')
      const { context, page } = await openDevice('wechat')
      const phone = newPhone()
      await page.goto('/mine')
      const leaving = page.waitForRequest((r) => r.isNavigationRequest() && r.url().includes('/api/wechat/oauth'), {
        timeout: 20_000,
      })
      await phoneLoginInPopup(page, phone)
      await expect.poll(() => toast(page, '登录成功！').isVisible(), { timeout: 10_000 }).toBe(true)
      const toastAt = Date.now()
      await shot(page, 'wechat-phone-login-toast')
      // The toast stays readable for 1.5 s, then the base scope, back to /mine with loginCallback=false.
      const left = await leaving
      expect(Date.now() - toastAt).toBeGreaterThanOrEqual(1300)
      expect(new URL(left.url()).searchParams.get('scope')).toBe('snsapi_base')
      await page.waitForURL((u) => u.pathname === '/mine' && !u.search.includes('code='), { timeout: 20_000 })
      // Shown again after the page came back.
      await expect.poll(() => toast(page, '登录成功！').isVisible(), { timeout: 10_000 }).toBe(true)
      await shot(page, 'wechat-phone-login-back')

      await page.goto(`/course/coursePurchase?course_id=${course.id}`)
      await expect.poll(() => page.getByText(course.title).first().isVisible(), { timeout: 15_000 }).toBe(true)
      await payOnCheckout(page)
      const sheet = page.frameLocator('iframe[title="微信支付"]')
      await expect
        .poll(() => sheet.getByRole('button', { name: '确认支付' }).isVisible(), { timeout: 20_000 })
        .toBe(true)
      await shot(page, 'wechat-phone-jsapi-sheet')
      await sheet.getByRole('button', { name: '确认支付' }).click()
      await expectPaid(page)
      const token = (await tokenOf(page))!
      expect(await playableUntil(token, previewLesson(course).id)).toBeNull()
      await shot(page, 'wechat-phone-jsapi-paid')
      await context.close()
    },
  )

  it('with login1 on the page, goes through /wechatLogin with path and login1', { timeout: 60_000 }, async () => {
    const { context, page } = await openDevice('wechat')
    await page.goto('/mine?login1=abc')
    const wechatLogin = page.waitForRequest((r) => r.isNavigationRequest() && r.url().includes('/wechatLogin'), {
      timeout: 20_000,
    })
    const oauth = page.waitForRequest((r) => r.isNavigationRequest() && r.url().includes('/api/wechat/oauth'), {
      timeout: 20_000,
    })
    await phoneLoginInPopup(page, newPhone())
    const via = new URL((await wechatLogin).url())
    expect(via.searchParams.get('path')).toBe('/mine')
    expect(via.searchParams.get('login1')).toBe('abc')
    // Signed in already: /wechatLogin asks only for the base scope, and WeChat comes back to the path.
    expect(new URL((await oauth).url()).searchParams.get('scope')).toBe('snsapi_base')
    await page.waitForURL((u) => u.pathname === '/mine' && !u.search.includes('code='), { timeout: 20_000 })
    expect(new URL(page.url()).searchParams.get('login1')).toBe('abc')
    expect(await tokenOf(page)).not.toBeNull()
    await context.close()
  })

  it(
    'a checkout without an openid gets it (base scope) and comes back to pay the same order',
    { timeout: 120_000 },
    async () => {
      const course = await courseByTitle('Word 长文档排版：论文与标书')
      const phone = newPhone()
      await call('POST', '/send_code', { body: { phone } })
      const login = await call<{ token: string }>('POST', '/login', {
        body: { phone, phone_code: await latestCode(phone, 'login'), platform: 3 },
      })
      // Signed in by phone but the openid round trip never happened (another tab, or it expired).
      const { context, page } = await openDevice('wechat', login.data.token)
      await page.goto(`/course/coursePurchase?course_id=${course.id}`)
      await expect.poll(() => page.getByText(course.title).first().isVisible(), { timeout: 15_000 }).toBe(true)
      await payOnCheckout(page)
      await page.waitForURL(/\/api\/wechat\/oauth\?scope=snsapi_base/, { timeout: 15_000 }).catch(() => undefined)
      const sheet = page.frameLocator('iframe[title="微信支付"]')
      await expect
        .poll(() => sheet.getByRole('button', { name: '确认支付' }).isVisible(), { timeout: 30_000 })
        .toBe(true)
      expect(new URL(page.url()).pathname).toBe('/course/coursePurchase')
      await sheet.getByRole('button', { name: '确认支付' }).click()
      const orderNo = await expectPaid(page)
      const orders = await apiData<{ list: { order_no: string }[] }>('/orders?kind=course', login.data.token).catch(
        () => null,
      )
      if (orders) expect(orders.list.filter((o) => o.order_no === orderNo)).toHaveLength(1)
      await shot(page, 'wechat-checkout-openid-roundtrip-paid')
      await context.close()
    },
  )
})

describe('snapshot mode and sharing', () => {
  it(
    'a page opened from Moments (snapshot mode) says to tap 使用完整服务 and keeps no openid',
    { timeout: 60_000 },
    async () => {
      const { context, page } = await openDevice('wechat')
      const { hostname } = new URL(inject('baseUrl'))
      await context.addCookies([{ name: 'wxsim_snapshot', value: '1', domain: hostname, path: '/__sim/wechat' }])
      await page.goto('/mine')
      await phoneLoginInPopup(page, newPhone())
      const notice = page.getByRole('dialog', { name: '当前是朋友圈预览页' })
      await expect.poll(() => notice.isVisible(), { timeout: 20_000 }).toBe(true)
      expect(await notice.innerText()).toContain('使用完整服务')
      expect(await page.evaluate(() => localStorage.getItem('zx_openid'))).toBeNull()
      await shot(page, 'wechat-snapshot-mode')
      await context.close()
    },
  )

  it(
    'course, video, teacher, bundle and VIP pages set the share card with the sharer’s sp',
    { timeout: 90_000 },
    async () => {
      const course = await courseByTitle('Photoshop 零基础入门')
      const lesson = previewLesson(course)
      const phone = newPhone()
      await call('POST', '/send_code', { body: { phone } })
      const token = (
        await call<{ token: string }>('POST', '/login', {
          body: { phone, phone_code: await latestCode(phone, 'login'), platform: 3 },
        })
      ).data.token
      const me = await apiData<{ member_id: number }>('/userinfo', token)
      const bundles = await apiData<{ list: { id: number; title: string }[] }>('/foryou/bundles').then((d) => d.list)
      const { context, page } = await openDevice('wechat', token)
      // As after a sign-in: the display copy of the user info (with the member id) is in its cookie.
      await context.addCookies([
        {
          name: 'zx_user',
          value: encodeURIComponent(JSON.stringify({ member_id: me.member_id })),
          domain: new URL(inject('baseUrl')).hostname,
          path: '/',
        },
      ])
      const pages = [
        { path: `/course/${course.id}.html`, title: course.title },
        { path: `/v/${lesson.id}.html`, title: lesson.title },
        { path: '/teacher', title: '自学讲师团队' },
        { path: '/vip', title: '自学 VIP 会员' },
        ...(bundles[0] ? [{ path: `/foryou/${bundles[0].id}`, title: bundles[0].title }] : []),
      ]
      for (const p of pages) {
        await page.goto(p.path)
        const card = await page
          .waitForFunction(
            () => (window as unknown as { __wxSim?: { appMessage: unknown; verified: boolean } }).__wxSim?.appMessage,
            undefined,
            { timeout: 15_000 },
          )
          .catch((error: unknown) => {
            throw new Error(`no share card on ${p.path} (${page.url()}): ${String(error)}`)
          })
        const share = (await card.jsonValue()) as { title: string; link: string; imgUrl: string; desc: string }
        expect(share.title).toBe(p.title)
        expect(
          await page.evaluate(() => (window as unknown as { __wxSim: { verified: boolean } }).__wxSim.verified),
        ).toBe(true)
        const link = new URL(share.link)
        expect(link.pathname).toBe(new URL(p.path, 'http://x').pathname)
        expect(link.searchParams.get('sp')).toBe(String(me.member_id))
        expect(share.imgUrl).toMatch(/^https?:\/\//)
      }
      await shot(page, 'wechat-share-vip')
      await context.close()

      // Outside WeChat: no signature request and no JS-SDK.
      const plain = await openDevice('phone')
      const loaded: string[] = []
      plain.page.on('request', (r) => loaded.push(r.url()))
      await plain.page.goto(`/course/${course.id}.html`)
      await plain.page.waitForLoadState('networkidle')
      expect(loaded.filter((u) => u.includes('/wechat/share') || u.includes('jweixin'))).toEqual([])
      await plain.context.close()
    },
  )
})
