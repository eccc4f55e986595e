import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { launchBrowser, PHONE, shot, skipOverlays, UA_WECHAT } from './support/browser.ts'

/**
 * Watching on a phone: real HLS playback (frames advance), resume on another device, the end of a free preview,
 * popups and notes — in Chromium's own user agent (hls.js on Media Source) and in WeChat's on iOS (native HLS,
 * which Chromium also has), so both ways of playing are exercised.
 */

const baseUrl = inject('baseUrl')

interface Envelope<T> {
  code: number
  msg: string
  data: T
}

async function apiGet<T>(path: string, token?: string): Promise<T> {
  const res = await fetch(`${baseUrl}/api${path}`, { headers: token ? { 'zxb-token': token } : {} })
  const body = (await res.json()) as Envelope<T>
  if (body.code !== 200) throw new Error(`${path} answered ${body.code} ${body.msg}`)
  return body.data
}

let phoneSeq = 0
/** Signs a new member in through the SMS endpoints and the development outbox. */
async function signIn(): Promise<string> {
  phoneSeq++
  const phone =
    `137${String(process.pid % 10_000).padStart(4, '0')}${String(Date.now() % 1000).padStart(3, '0')}${phoneSeq}`.slice(
      0,
      11,
    )
  const post = (path: string, body: object) =>
    fetch(`${baseUrl}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<Envelope<{ token: string }>>)
  const sent = await post('/send_code', { phone })
  if (sent.code !== 200) throw new Error(`send_code: ${sent.msg}`)
  const outbox = await apiGet<{ list: { code: string; sent_at: string }[] }>(`/dev/outbox?phone=${phone}`)
  const code = [...outbox.list].sort((a, b) => b.sent_at.localeCompare(a.sent_at))[0]!.code
  const login = await post('/login', { phone, phone_code: code, platform: 2 })
  if (login.code !== 200) throw new Error(`login: ${login.msg}`)
  return login.data.token
}

/** A phone-sized context; `ua` null keeps Chromium's own user agent. With a token, the member is signed in. */
async function device(ua: string | null, token?: string): Promise<{ context: BrowserContext; page: Page }> {
  const browser = await launchBrowser()
  const context = await browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    baseURL: baseUrl,
    ...(ua ? { userAgent: ua } : {}),
  })
  if (token) {
    await context.addInitScript((t) => {
      localStorage.setItem('zx_token', JSON.stringify({ token: t, expire: Date.now() + 7 * 24 * 3600_000 }))
    }, token)
  }
  // The journeys here are about the player: the site's notices (system overlays) would cover its controls.
  await skipOverlays(context)
  await watchSourceLoads(context)
  const page = await context.newPage()
  page.on('pageerror', (err) => {
    throw err
  })
  return { context, page }
}

/**
 * Records each time a <video> starts loading a source (`loadstart`, with its src attribute) or throws a loaded one
 * away (`emptied`). Media events do not bubble: the listeners capture them at the document.
 */
async function watchSourceLoads(context: BrowserContext) {
  await context.addInitScript(() => {
    const loads: string[] = []
    Object.assign(window, { __sourceLoads: loads })
    for (const type of ['loadstart', 'emptied'])
      document.addEventListener(
        type,
        (event) => loads.push(`${type} ${(event.target as HTMLVideoElement).getAttribute('src') ?? ''}`),
        true,
      )
  })
}
const sourceLoads = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sourceLoads: string[] }).__sourceLoads)

/**
 * The player set its source once: pressing play, the member's page arriving or a re-render never reloads it (a
 * reload interrupts a pending play(), and on a phone the new source no longer carries the tap that started it).
 */
async function expectSourceSetOnce(page: Page, engine: 'hls.js' | 'native') {
  expect(await sourceLoads(page)).toEqual([
    expect.stringMatching(engine === 'hls.js' ? /^loadstart blob:/ : /^loadstart \S*\/media\/hls\/\d+\/master\.m3u8\?/),
  ])
}

interface CourseVideo {
  id: number
  title: string
  is_free: boolean
  free_seconds: number
}

async function courseByTitle(title: string) {
  const list = await apiGet<{ list: { id: number; title: string }[] }>('/v2/course_list?limit=50')
  const found = list.list.find((c) => c.title === title)
  if (!found) throw new Error(`no course ${title}`)
  return apiGet<{ id: number; chapters: { videos: CourseVideo[] }[] }>(`/course?id=${found.id}`)
}

const video = (page: Page) => page.getByTestId('player-video')
const currentTime = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.currentTime)

/** The player's own play button, shown before the first start where hls.js plays (it is loaded only then). */
const startButton = (page: Page) => page.getByRole('button', { name: '播放', exact: true })

/**
 * Starts playback as a tap would (Playwright's click and evaluate carry a user gesture): where hls.js plays, a tap
 * on the player's play button loads it and attaches the stream first. With native HLS it does not wait for the
 * source to load: a learner taps as soon as they see the video, and the player must keep that play() going.
 */
async function play(page: Page) {
  if (await startButton(page).isVisible()) {
    await startButton(page).click()
    await expect
      .poll(() => video(page).evaluate((v: HTMLVideoElement) => v.currentSrc), { timeout: 15_000 })
      .toMatch(/^blob:/)
  }
  await video(page).evaluate((v: HTMLVideoElement) => v.play())
}

/** Records the hls.js chunk being requested (the build names it hls.light-<hash>.js). */
function watchHlsChunk(page: Page) {
  const seen: string[] = []
  page.on('request', (r) => {
    if (/\/assets\/hls[^/]*\.js$/.test(new URL(r.url()).pathname)) seen.push(r.url())
  })
  return seen
}

/** Frames really advance: the clock moves and the decoder keeps producing frames. */
async function expectFramesAdvance(page: Page) {
  const sample = () =>
    video(page).evaluate((v: HTMLVideoElement) => ({
      t: v.currentTime,
      frames: v.getVideoPlaybackQuality().totalVideoFrames,
      w: v.videoWidth,
    }))
  const before = await sample()
  // A busy machine may need a moment to buffer; the clock must then run on.
  await expect.poll(async () => (await sample()).t, { timeout: 10_000 }).toBeGreaterThan(before.t + 0.8)
  const after = await sample()
  expect(after.frames).toBeGreaterThan(before.frames)
  expect(after.w).toBeGreaterThan(0)
}

const agents: [string, string | null, 'hls.js' | 'native'][] = [
  ['Chromium', null, 'hls.js'],
  ['WeChat (iOS)', UA_WECHAT, 'native'],
]

describe.each(agents)('watching in %s', (name, ua, engine) => {
  const slug = name.startsWith('WeChat') ? 'wechat' : 'chromium'

  it('decodes H.264/AAC in this browser (the codec the transcoder writes)', async () => {
    const { page, context } = await device(ua)
    await page.goto('/')
    const support = await page.evaluate(() => ({
      mse:
        typeof MediaSource !== 'undefined' && MediaSource.isTypeSupported('video/mp4; codecs="avc1.42E01E,mp4a.40.2"'),
      native: document.createElement('video').canPlayType('application/vnd.apple.mpegurl'),
    }))
    expect(support.mse).toBe(true)
    await context.close()
  })

  it(
    'plays a free lesson, and another device resumes where the member left at 0:20',
    { timeout: 120_000 },
    async () => {
      const token = await signIn()
      const course = await courseByTitle('10 分钟掌握 PS 高频快捷键')
      const lesson = course.chapters[0]!.videos[0]!

      const first = await device(ua, token)
      const { page } = first
      const hlsChunk = watchHlsChunk(page)
      await page.goto(`/v/${lesson.id}.html`)
      // Waits on the page itself (a loaded CI machine can take over a second to answer the first look).
      await page.getByRole('heading', { level: 1, name: lesson.title }).waitFor()
      await page.getByTestId('player-watermark').waitFor()
      expect(await page.getByTestId('player-watermark').innerText()).toMatch(/^学员 \d\d\*\*\d{4}$/)
      if (engine === 'hls.js') {
        // hls.js is not fetched until the video starts: the page shows its play button and nothing is attached.
        await expect.poll(() => startButton(page).isVisible()).toBe(true)
        await page.waitForLoadState('networkidle')
        expect(hlsChunk).toEqual([])
        expect(await video(page).evaluate((v: HTMLVideoElement) => v.currentSrc)).toBe('')
      } else {
        // Native HLS plays the playlist itself, and hls.js is never fetched.
        await expect
          .poll(() => video(page).evaluate((v: HTMLVideoElement) => v.currentSrc), { timeout: 15_000 })
          .toMatch(/\/media\/hls\/\d+\/master\.m3u8\?/)
      }

      await page.getByRole('button', { name: '2×' }).click()
      await play(page)
      // The engine this browser gets: hls.js feeds a blob: URL (Media Source); native HLS plays the playlist itself.
      expect(await video(page).evaluate((v: HTMLVideoElement) => v.currentSrc)).toMatch(
        engine === 'hls.js' ? /^blob:/ : /\/media\/hls\/\d+\/master\.m3u8\?/,
      )
      expect(hlsChunk).toHaveLength(engine === 'hls.js' ? 1 : 0)
      await expectFramesAdvance(page)
      await expectSourceSetOnce(page, engine)
      expect(await video(page).evaluate((v: HTMLVideoElement) => v.playbackRate)).toBe(2)

      // The lesson's popup appears at its second (6 s) while the video keeps playing.
      await expect.poll(() => page.getByTestId('player-popup').isVisible(), { timeout: 20_000 }).toBe(true)
      expect(await page.getByTestId('player-popup').innerText()).toContain('加入 PS 学习群')
      await shot(page, `player-${slug}-popup`)
      await page.getByTestId('player-popup').getByRole('button', { name: '关闭' }).click()

      await expect.poll(() => currentTime(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(20)
      await shot(page, `player-${slug}-playing`)
      // Leaving the page (pagehide) sends the position by beacon.
      await page.goto('/')
      await expect
        .poll(
          async () => (await apiGet<{ resume_position: number }>(`/video?vid=${lesson.id}`, token)).resume_position,
          { timeout: 10_000 },
        )
        .toBeGreaterThanOrEqual(19)
      const saved = (await apiGet<{ resume_position: number }>(`/video?vid=${lesson.id}`, token)).resume_position
      expect(saved).toBeLessThanOrEqual(26)
      await first.context.close()

      // Another phone, same member: the video starts where they stopped.
      const second = await device(ua, token)
      await second.page.goto(`/v/${lesson.id}.html`)
      await second.page.getByTestId('player-watermark').waitFor()
      // With hls.js the stream is attached at the first start, at the saved second.
      if (engine === 'hls.js') await play(second.page)
      await expect.poll(() => currentTime(second.page), { timeout: 15_000 }).toBeGreaterThanOrEqual(saved - 1)
      expect(await currentTime(second.page)).toBeLessThanOrEqual(saved + 1.5)
      await play(second.page)
      await expectFramesAdvance(second.page)
      await expectSourceSetOnce(second.page, engine)
      expect(await currentTime(second.page)).toBeGreaterThan(saved)
      await shot(second.page, `player-${slug}-resumed`)

      // The study record and the purchased tab list the lesson with its progress and a way back.
      await second.page.goto('/studyRecord')
      const record = second.page.getByRole('list', { name: '学习记录' }).getByRole('listitem').first()
      await expect.poll(() => record.innerText(), { timeout: 10_000 }).toContain(lesson.title)
      expect(await record.getByRole('link', { name: '继续学习' }).getAttribute('href')).toBe(`/v/${lesson.id}.html`)
      await shot(second.page, `player-${slug}-study-record`)
      await second.page.goto('/ke1')
      const owned = second.page.getByRole('list', { name: '我的课程' }).getByRole('listitem').first()
      await expect.poll(() => owned.innerText(), { timeout: 10_000 }).toContain('10 分钟掌握 PS 高频快捷键')
      expect(await owned.getByRole('link', { name: '继续学习' }).getAttribute('href')).toBe(`/v/${lesson.id}.html`)
      await shot(second.page, `player-${slug}-ke1`)
      await second.context.close()
    },
  )

  it(
    'stops a member without access at the end of the preview and offers to buy or join VIP',
    { timeout: 90_000 },
    async () => {
      const token = await signIn()
      const course = await courseByTitle('Photoshop 零基础入门')
      const preview = course.chapters.flatMap((c) => c.videos).find((v) => !v.is_free && v.free_seconds > 0)!
      expect(preview.free_seconds).toBeLessThanOrEqual(15)

      const { page, context } = await device(ua, token)
      await page.goto(`/v/${preview.id}.html`)
      await page.getByText(/试看前 0:\d\d/).waitFor()
      if (engine === 'native')
        await expect
          .poll(() => video(page).evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
          .toBeGreaterThanOrEqual(1)
      await play(page)
      await expectFramesAdvance(page)
      await expectSourceSetOnce(page, engine)

      const prompt = page.getByTestId('access-prompt')
      await expect.poll(() => prompt.isVisible(), { timeout: 30_000 }).toBe(true)
      expect(await prompt.innerText()).toContain('试看已结束')
      // 购买课程 goes straight to this course's checkout; VIP is offered only where it opens the course.
      expect(await prompt.getByRole('link', { name: /购买课程/ }).getAttribute('href')).toBe(
        `/course/coursePurchase?course_id=${course.id}`,
      )
      expect(await prompt.getByRole('link', { name: /开通 VIP/ }).count()).toBe(0)
      expect(await page.getByRole('region', { name: '购买' }).getByRole('link', { name: 'VIP' }).count()).toBe(0)
      expect(await video(page).evaluate((v: HTMLVideoElement) => v.paused)).toBe(true)
      expect(await currentTime(page)).toBeLessThanOrEqual(preview.free_seconds + 0.5)
      await shot(page, `player-${slug}-preview-ended`)

      // Seeking past the end is refused: the player seeks back at once, and the (last) seek then completes.
      await video(page).evaluate(
        (v: HTMLVideoElement) =>
          new Promise<void>((resolve) => {
            v.addEventListener('seeked', () => resolve(), { once: true })
            v.currentTime = v.duration
          }),
      )
      expect(await currentTime(page)).toBeLessThanOrEqual(preview.free_seconds + 0.5)

      // The server kept the preview position, never past the preview.
      await page.goto('/')
      await expect
        .poll(
          async () =>
            (await apiGet<{ video: { progress: { position: number } } }>(`/video?vid=${preview.id}`, token)).video
              .progress.position,
          { timeout: 10_000 },
        )
        .toBeGreaterThan(0)
      const after = await apiGet<{ video: { progress: { position: number } } }>(`/video?vid=${preview.id}`, token)
      expect(after.video.progress.position).toBeLessThanOrEqual(preview.free_seconds)
      await context.close()
    },
  )
})

describe('notes, popups and the course page', () => {
  it('takes a note at the current second and jumps back to it with a tap', { timeout: 90_000 }, async () => {
    const token = await signIn()
    const course = await courseByTitle('素描基础：结构与明暗')
    const lesson = course.chapters[0]!.videos[0]!
    const { page, context } = await device(null, token)
    await page.goto(`/v/${lesson.id}.html`)
    // Chromium plays with hls.js, loaded at the first start: the player shows its play button until then.
    await expect.poll(() => startButton(page).isVisible(), { timeout: 15_000 }).toBe(true)
    await play(page)
    await expect.poll(() => currentTime(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(3)
    await video(page).evaluate((v: HTMLVideoElement) => v.pause())
    const at = Math.floor(await currentTime(page))

    await page.getByRole('tab', { name: '笔记' }).click()
    await page.getByLabel('笔记内容').fill('明暗交界线要画实')
    await page.getByRole('button', { name: '记在当前时间点' }).click()
    const notes = page.getByRole('list', { name: '我的笔记' })
    await expect.poll(() => notes.innerText()).toContain('明暗交界线要画实')
    expect(await notes.innerText()).toContain(`0:${String(at).padStart(2, '0')}`)
    await shot(page, 'player-notes')

    await video(page).evaluate((v: HTMLVideoElement) => {
      v.currentTime = 15
    })
    await notes.getByRole('button', { name: /跳到/ }).first().click()
    await expect.poll(() => currentTime(page)).toBeLessThan(at + 2)
    expect(await currentTime(page)).toBeGreaterThanOrEqual(at)
    await context.close()
  })

  it('reports a tap on a player popup and follows its link', { timeout: 60_000 }, async () => {
    const course = await courseByTitle('10 分钟掌握 PS 高频快捷键')
    const lesson = course.chapters[0]!.videos[0]!
    const { page, context } = await device(null)
    await page.goto(`/v/${lesson.id}.html`)
    // Chromium plays with hls.js, loaded at the first start: the player shows its play button until then.
    await expect.poll(() => startButton(page).isVisible(), { timeout: 15_000 }).toBe(true)
    await page.getByRole('button', { name: '2×' }).click()
    await play(page)
    const popup = page.getByTestId('player-popup')
    await expect.poll(() => popup.isVisible(), { timeout: 20_000 }).toBe(true)
    const report = page.waitForRequest((r) => r.url().endsWith('/api/popup/player/click') && r.method() === 'POST')
    await popup.getByRole('button', { name: '查看' }).click()
    expect((await report).postDataJSON()).toMatchObject({ id: expect.any(Number) as number })
    await page.waitForURL(/\/customerG$/)
    await context.close()
  })

  it('lists a system course the member started on /ke3, with its plan and progress', { timeout: 60_000 }, async () => {
    const token = await signIn()
    const system = await courseByTitle('平面设计师系统班')
    const intro = system.chapters[0]!.videos[0]!
    const { page, context } = await device(null, token)
    await page.goto(`/v/${intro.id}.html`)
    // Chromium plays with hls.js, loaded at the first start: the player shows its play button until then.
    await expect.poll(() => startButton(page).isVisible(), { timeout: 15_000 }).toBe(true)
    await play(page)
    await expect.poll(() => currentTime(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(3)
    // A pause saves the position.
    await video(page).evaluate((v: HTMLVideoElement) => v.pause())
    await expect
      .poll(async () => (await apiGet<{ list: unknown[] }>('/center/study_record', token)).list.length, {
        timeout: 10_000,
      })
      .toBe(1)

    await page.goto('/ke3')
    const joined = page.getByRole('list', { name: '我的体系课' }).getByRole('listitem')
    await expect.poll(() => joined.count(), { timeout: 10_000 }).toBe(1)
    expect(await joined.innerText()).toContain('平面设计师系统班')
    expect(await joined.getByRole('link', { name: '继续学习' }).getAttribute('href')).toBe(`/v/${intro.id}.html`)
    await shot(page, 'player-ke3')
    await joined.getByRole('link').first().click()
    await page.waitForURL(/\/course\/systemCourse\?id=\d+$/)
    await expect.poll(() => page.getByRole('heading', { name: /学习路线/ }).isVisible()).toBe(true)
    await expect.poll(() => page.getByRole('progressbar', { name: '总进度' }).count()).toBe(1)
    await shot(page, 'player-system-course')
    await context.close()
  })

  it('shows a live course’s schedule before it starts and its replay after it ended', async () => {
    const { page, context } = await device(null)
    const upcoming = await courseByTitle('职场 Office 效率直播课')
    await page.goto(`/li/${upcoming.id}.html`)
    await expect.poll(() => page.getByRole('timer').innerText()).toMatch(/^距开播/)
    expect(await page.getByText('即将开始').count()).toBeGreaterThan(0)
    await shot(page, 'player-live-upcoming')
    const ended = await courseByTitle('板绘直播：一小时画一张头像')
    await page.goto(`/li/${ended.id}.html`)
    const replay = page.getByRole('link', { name: /回放/ }).first()
    await expect.poll(() => replay.getAttribute('href')).toBe(`/v/${ended.chapters[0]!.videos[0]!.id}.html`)
    await context.close()
  })

  it('lets an anonymous visitor start a free course from the course page and try a paid one', async () => {
    const { page, context } = await device(null)
    const free = await courseByTitle('10 分钟掌握 PS 高频快捷键')
    await page.goto(`/course/${free.id}.html`)
    const start = page.getByRole('link', { name: '开始学习' })
    await expect.poll(() => start.getAttribute('href')).toBe(`/v/${free.chapters[0]!.videos[0]!.id}.html`)
    await shot(page, 'player-course-free')

    const paid = await courseByTitle('Photoshop 零基础入门')
    await page.goto(`/course/${paid.id}.html`)
    await expect
      .poll(() => page.getByRole('link', { name: '试看', exact: true }).getAttribute('href'))
      .toBe(`/v/${paid.chapters[0]!.videos[0]!.id}.html`)
    // Each lesson row opens the player.
    await page.locator('#chapters a[href^="/v/"]').nth(2).click()
    await page.waitForURL(/\/v\/\d+\.html$/)
    await expect.poll(() => page.getByTestId('access-prompt').isVisible()).toBe(true)
    expect(await page.getByTestId('access-prompt').innerText()).toContain('本节为付费内容')
    await shot(page, 'player-locked')
    await context.close()
  })
})
