import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import jsQR from 'jsqr'
import type { BrowserContext, Page } from 'playwright-core'
import { afterEach, expect, inject } from 'vitest'
import { launchBrowser, PHONE, UA_MOBILE, UA_WECHAT } from './browser.ts'

/**
 * Shared steps of the commerce journeys (issue 4): members and an operator signed in through the real endpoints,
 * devices of each kind (phone browser, WeChat, desktop), checkout and the simulators' cashier, and what a member
 * can watch before and after.
 */

const root = path.resolve(import.meta.dirname, '../../..')

// A failed journey shows what the server said meanwhile (it runs as a child process with its own log).
afterEach((ctx) => {
  if (ctx.task.result?.state !== 'fail') return
  const log = fs.readFileSync(inject('serverLog'), 'utf8')
  console.error(`--- server log (last 4000 characters) ---\n${log.slice(-4000)}`)
})

const UA_DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36'
export const DESKTOP = { width: 1280, height: 800 }

export interface Envelope<T> {
  code: number
  msg: string
  data: T
}

/** One API call as the app makes it (envelope answer), with the member's token when given. */
export async function call<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  apiPath: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Envelope<T>> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token) headers['zxb-token'] = options.token
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${inject('baseUrl')}/api${apiPath}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  return (await res.json()) as Envelope<T>
}

/** GET that must succeed: its data. */
export async function apiData<T>(apiPath: string, token?: string): Promise<T> {
  const body = await call<T>('GET', apiPath, { token })
  if (body.code !== 200) throw new Error(`GET ${apiPath} answered ${body.code} ${body.msg}`)
  return body.data
}

let phoneSeq = 0
/** A phone number no other journey of this run uses. */
export function newPhone(): string {
  phoneSeq++
  return `15${String(Date.now()).slice(-6)}${String(process.pid % 100).padStart(2, '0')}${phoneSeq % 10}`
}

/** Signs a member in through the SMS endpoints, reading the code from the development outbox. */
export async function signIn(phone = newPhone()): Promise<string> {
  const sent = await call('POST', '/send_code', { body: { phone } })
  if (sent.code !== 200) throw new Error(`send_code: ${sent.msg}`)
  const outbox = await apiData<{ list: { code: string; sent_at: string }[] }>(`/dev/outbox?phone=${phone}`)
  const code = [...outbox.list].sort((a, b) => b.sent_at.localeCompare(a.sent_at))[0]!.code
  const login = await call<{ token: string }>('POST', '/login', { body: { phone, phone_code: code, platform: 2 } })
  if (login.code !== 200) throw new Error(`login: ${login.msg}`)
  return login.data.token
}

/**
 * An operator, made the way the deployment guide says (`npm run admin:create` on the server's database), who
 * then signs in with an SMS code like anyone else.
 */
export async function signInOperator(): Promise<string> {
  const phone = newPhone()
  const made = spawnSync(
    process.execPath,
    [path.join(root, 'scripts/create-admin.ts'), '--phone', phone, '--nickname', '运营'],
    {
      cwd: root,
      env: {
        ...process.env,
        APP_ENV: 'demo',
        RATE_LIMIT: 'false',
        DATABASE_URL: inject('databaseUrl'),
        LOG_LEVEL: 'warn',
      },
      encoding: 'utf8',
    },
  )
  if (made.status !== 0) throw new Error(`admin:create failed: ${made.stderr || made.stdout}`)
  const token = await signIn(phone)
  staffPhones.set(token, phone)
  return token
}

/** Staff members' phones by token: step-up codes go to them. */
const staffPhones = new Map<string, string>()

let staffSeq = 0

/** An admin grants these roles to a new phone through the staff API (with its step-up proof); the phone. */
export async function grantStaff(admin: string, roles: string[]) {
  const phone = `16${String(Date.now()).slice(-7)}${++staffSeq % 10}${process.pid % 10}`
  const granted = await call('POST', '/admin/staff', {
    token: admin,
    headers: { 'x-step-up': await stepUpProof(admin) },
    body: { phone, roles },
  })
  if (granted.code !== 200) throw new Error(`grant ${roles.join()}: ${granted.msg}`)
  return phone
}

/** The newest code of this purpose the development outbox holds for a phone. */
export async function latestCode(phone: string, purpose = 'login') {
  const outbox = await apiData<{ list: { code: string; purpose: string; sent_at: string }[] }>(
    `/dev/outbox?phone=${phone}`,
  )
  const codes = outbox.list.filter((m) => m.purpose === purpose).sort((a, b) => b.sent_at.localeCompare(a.sent_at))
  if (!codes[0]) throw new Error(`no ${purpose} code for ${phone}`)
  return codes[0].code
}

/** Proofs already confirmed, by token: one lasts 5 minutes (a second code within a minute would be refused). */
const proofs = new Map<string, { proof: string; at: number }>()

/** A fresh step-up proof for a staff member signed in with signInOperator (SMS code from the outbox). */
export async function stepUpProof(token: string) {
  const kept = proofs.get(token)
  if (kept && Date.now() - kept.at < 240_000) return kept.proof
  const phone = staffPhones.get(token)
  if (!phone) throw new Error('stepUpProof: sign the staff member in with signInOperator')
  const sent = await call('POST', '/admin/step-up/send_code', { token })
  if (sent.code !== 200) throw new Error(`step-up send_code: ${sent.msg}`)
  const proof = await call<{ proof: string }>('POST', '/admin/step-up', {
    token,
    body: { code: await latestCode(phone, 'step_up') },
  })
  if (proof.code !== 200) throw new Error(`step-up: ${proof.msg}`)
  proofs.set(token, { proof: proof.data.proof, at: Date.now() })
  return proof.data.proof
}

export type DeviceKind = 'phone' | 'wechat' | 'desktop'

/** A fresh browser context of that kind; with a token the member is signed in (as after a login). */
export async function openDevice(kind: DeviceKind, token?: string): Promise<{ context: BrowserContext; page: Page }> {
  const browser = await launchBrowser()
  const baseUrl = inject('baseUrl')
  const context = await browser.newContext(
    kind === 'desktop'
      ? { viewport: DESKTOP, locale: 'zh-CN', baseURL: baseUrl, userAgent: UA_DESKTOP }
      : {
          viewport: PHONE,
          deviceScaleFactor: 2,
          isMobile: true,
          hasTouch: true,
          locale: 'zh-CN',
          baseURL: baseUrl,
          userAgent: kind === 'wechat' ? UA_WECHAT : UA_MOBILE,
        },
  )
  if (token) {
    await context.addInitScript((t) => {
      if (!localStorage.getItem('zx_token'))
        localStorage.setItem('zx_token', JSON.stringify({ token: t, expire: Date.now() + 7 * 24 * 3600_000 }))
    }, token)
  }
  // The home page's system overlays would cover the screens under test.
  const overlays = await apiData<{ list: { so_id: number }[] }>('/systemOverlay')
  const { hostname } = new URL(baseUrl)
  await context.addCookies(
    overlays.list.map((o) => ({ name: `so_seen_${o.so_id}`, value: '1', domain: hostname, path: '/' })),
  )
  const page = await context.newPage()
  page.on('pageerror', (err) => {
    throw err
  })
  return { context, page }
}

/** The token the page holds (after a WeChat sign-in, for instance). */
async function tokenOf(page: Page): Promise<string> {
  const record = await page.waitForFunction(() => localStorage.getItem('zx_token'))
  return (JSON.parse((await record.jsonValue()) as string) as { token: string }).token
}

/** Signs in inside WeChat through the OAuth simulator's consent page; returns the new session's token. */
export async function signInWithWechat(page: Page, nickname: string, back = '/mine'): Promise<string> {
  await page.goto(`/wechatLogin?path=${encodeURIComponent(back)}`)
  await page.waitForURL(/\/__sim\/wechat\/connect\/oauth2\/authorize\?/)
  await page.getByRole('textbox', { name: '昵称' }).fill(nickname)
  await page.getByRole('button', { name: '允许' }).click()
  await page.waitForURL((url) => url.pathname === back && !url.search.includes('code='), { timeout: 15_000 })
  return tokenOf(page)
}

export interface CourseVideo {
  id: number
  title: string
  is_free: boolean
  free_seconds: number
}

export interface Course {
  id: number
  title: string
  price_fen: number
  vip_free?: boolean
  chapters: { videos: CourseVideo[] }[]
}

export async function courseByTitle(title: string): Promise<Course> {
  const list = await apiData<{ list: { id: number; title: string }[] }>('/v2/course_list?limit=50')
  const found = list.list.find((c) => c.title === title)
  if (!found) throw new Error(`no course ${title}`)
  return apiData<Course>(`/course?id=${found.id}`)
}

/** The lesson of a paid course that has a free preview (the seed's second lesson). */
export function previewLesson(course: Course): CourseVideo {
  const v = course.chapters.flatMap((c) => c.videos).find((x) => !x.is_free && x.free_seconds > 0)
  if (!v) throw new Error(`${course.title} has no lesson with a preview`)
  return v
}

/** What the server lets this member watch of a lesson: null is all of it, a number the end of the preview. */
export async function playableUntil(token: string, videoId: number): Promise<number | null | 'refused'> {
  const answer = await call<{ until_second: number | null }>('GET', `/video/play?vid=${videoId}`, { token })
  if (answer.code !== 200) return 'refused'
  return answer.data.until_second
}

const player = (page: Page) => page.getByTestId('player-video')
const currentTime = (page: Page) => player(page).evaluate((v: HTMLVideoElement) => v.currentTime)

async function openLesson(page: Page, lesson: CourseVideo) {
  await page.goto(`/v/${lesson.id}.html`)
  await expect
    .poll(() => page.getByRole('heading', { level: 1, name: lesson.title }).isVisible(), { timeout: 15_000 })
    .toBe(true)
  await expect
    .poll(() => player(page).evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
    .toBeGreaterThanOrEqual(1)
}

/** The lesson plays on past the end of its free preview in the player: no preview label, no prompt to buy. */
export async function expectPlaysPastPreview(page: Page, lesson: CourseVideo) {
  await openLesson(page, lesson)
  expect(await page.getByText(/试看前/).count()).toBe(0)
  const from = lesson.free_seconds + 1
  // A play() the player's own source load interrupts (AbortError) is asked again until the video runs past `from`.
  await expect
    .poll(
      async () => {
        await player(page).evaluate((v: HTMLVideoElement, at: number) => {
          if (v.currentTime < at) v.currentTime = at
          return v.play().catch(() => undefined)
        }, from)
        return currentTime(page)
      },
      { timeout: 15_000 },
    )
    .toBeGreaterThan(from + 1)
  expect(await page.getByTestId('access-prompt').isVisible()).toBe(false)
}

/** The lesson is a preview again: labelled, and a seek past its end is pulled back (the prompt to buy shows). */
export async function expectPreviewOnly(page: Page, lesson: CourseVideo) {
  await openLesson(page, lesson)
  await expect.poll(() => page.getByText(/试看前 \d+:\d\d/).isVisible(), { timeout: 10_000 }).toBe(true)
  await player(page).evaluate((v: HTMLVideoElement, at: number) => {
    v.currentTime = at
  }, lesson.free_seconds + 3)
  await expect.poll(() => page.getByTestId('access-prompt').isVisible(), { timeout: 15_000 }).toBe(true)
  expect(await currentTime(page)).toBeLessThanOrEqual(lesson.free_seconds + 0.5)
}

/** On a checkout page (course, VIP, amount): picks the method, agrees to the terms and presses 立即支付. */
export async function payOnCheckout(page: Page, method?: RegExp) {
  const pay = page.getByRole('button', { name: /^立即支付 ¥/ })
  await expect.poll(() => pay.isVisible(), { timeout: 15_000 }).toBe(true)
  if (method) {
    await page.getByRole('radio', { name: method }).check()
    expect(await page.getByRole('radio', { name: method }).isChecked()).toBe(true)
  }
  const agree = page.getByLabel('我已阅读并同意')
  // The agreement's label is what a thumb taps (the box itself is small): a full touch target.
  expect((await page.locator('label[for="agree"]').boundingBox())!.height).toBeGreaterThanOrEqual(44)
  if (!(await agree.isChecked())) await agree.check()
  await pay.click()
}

/** At a simulator's cashier (WeChat Pay H5 or Native, Alipay): presses 确认支付 or 取消. */
export async function answerCashier(page: Page, answer: '确认支付' | '取消' = '确认支付') {
  await page.waitForURL(/\/__sim\/(wechatpay|alipay)\//, { timeout: 15_000 })
  await page.getByRole('button', { name: answer, exact: true }).click()
}

/**
 * Buys through the API as the checkout page would (WeChat Pay H5) and pays at the simulator's cashier in the
 * browser; for orders that a journey needs as a starting point. Returns the order number once it is paid.
 */
export async function buyWithH5(
  page: Page,
  token: string,
  apiPath: '/pay/course' | '/pay/vip' | '/pay/amount' | '/foryou/pay',
  body: Record<string, unknown>,
): Promise<string> {
  const order = await call<{ order_no: string; h5_url: string | null }>('POST', apiPath, {
    token,
    body: { ...body, pay_method: 'wechat_h5' },
  })
  if (order.code !== 200 || !order.data.h5_url) throw new Error(`${apiPath}: ${order.code} ${order.msg}`)
  await page.goto(order.data.h5_url)
  await answerCashier(page)
  const paid = await expectPaid(page)
  expect(paid).toBe(order.data.order_no)
  return paid
}

/** Back from the provider: through /payRedirect to the result page; returns the order number. */
export async function expectPaid(page: Page): Promise<string> {
  await page.waitForURL(/\/PaymentSuccessful\?order_no=/, { timeout: 30_000 })
  await expect
    .poll(
      () =>
        page
          .getByText(/^(支付成功|兑换成功)$/)
          .first()
          .isVisible(),
      { timeout: 10_000 },
    )
    .toBe(true)
  return new URL(page.url()).searchParams.get('order_no')!
}

export interface OrderView {
  order_no: string
  kind: string
  state: string
  amount_fen: number
  refunded_fen: number
  pay_method: string
}

export async function orderState(token: string, orderNo: string): Promise<OrderView> {
  return apiData<OrderView>(`/orders/${orderNo}`, token)
}

/** The operator approves the member's open refund request of this order (all of it, or `amountFen`). */
export async function approveRefund(operator: string, orderNo: string, amountFen?: number): Promise<string> {
  const requested = await apiData<{ list: { refund_no: string; order_no: string }[] }>(
    '/admin/refunds?state=requested&page_size=100',
    operator,
  )
  const refund = requested.list.find((r) => r.order_no === orderNo)
  if (!refund) throw new Error(`no refund request for ${orderNo}`)
  const approved = await call<{ state: string }>('POST', `/admin/refunds/${refund.refund_no}/approve`, {
    token: operator,
    headers: { 'x-step-up': await stepUpProof(operator) },
    body: amountFen === undefined ? { note: '同意退款' } : { amount_fen: amountFen, note: '部分退款' },
  })
  if (approved.code !== 200) throw new Error(`approve ${refund.refund_no}: ${approved.code} ${approved.msg}`)
  expect(approved.data.state).toBe('processing')
  return refund.refund_no
}

/**
 * At the WeChat Pay simulator's refund page (its merchant platform): completes this refund now, which sends the
 * refund notification to the server.
 */
export async function completeRefundAtProvider(page: Page, refundNo: string) {
  await page.goto('/__sim/wechatpay/refunds')
  const complete = page.getByRole('button', { name: `完成退款 ${refundNo}` })
  await complete.click()
  await expect.poll(() => complete.count(), { timeout: 10_000 }).toBe(0)
  expect(await page.getByText(refundNo).locator('xpath=ancestor::section[1]').innerText()).toContain('退款成功')
}

/** A member's refund request through the API (for orders whose refund screen another journey covers). */
export async function requestRefund(token: string, orderNo: string, reason = '买错了课程') {
  const answer = await call<{ state: string }>('POST', '/refunds', { token, body: { order_no: orderNo, reason } })
  if (answer.code !== 200) throw new Error(`refund request ${orderNo}: ${answer.code} ${answer.msg}`)
  return answer.data
}

/** Reads the QR code shown on the page (an <img> or <canvas>) as a phone camera would. */
export async function readQr(page: Page, selector: string): Promise<string | null> {
  const pixels = await page.locator(selector).evaluate((el: HTMLImageElement | HTMLCanvasElement) => {
    const canvas = document.createElement('canvas')
    const w = el instanceof HTMLImageElement ? el.naturalWidth : el.width
    const h = el instanceof HTMLImageElement ? el.naturalHeight : el.height
    canvas.width = w
    canvas.height = h
    const g = canvas.getContext('2d')!
    g.fillStyle = '#fff'
    g.fillRect(0, 0, w, h)
    g.drawImage(el, 0, 0)
    return { w, h, data: Array.from(g.getImageData(0, 0, w, h).data) }
  })
  return jsQR(Uint8ClampedArray.from(pixels.data), pixels.w, pixels.h)?.data ?? null
}
