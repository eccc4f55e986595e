import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { shot } from './support/browser.ts'
import { buyWithH5, call, courseByTitle, openDevice, signIn } from './support/commerce.ts'

/**
 * Issue 12: a corpus of XSS payloads stored through the API in every text field a learner writes — nickname,
 * comments, notes, refund reasons, search keywords — renders as text on every page that shows it: no payload
 * script runs, no element it carries appears, and the Content-Security-Policy reports nothing.
 */
const corpus = [
  `<script>f('script')</script>`,
  `<img src=x onerror="f('img')" data-xss>`,
  `"><svg onload="f('svg')" data-xss>`,
  `<a href="javascript:f('href')" data-xss>点我</a>`,
  `</textarea><iframe srcdoc="<script>parent.f('iframe')</script>" data-xss></iframe>`,
  `{{constructor.constructor("f('tpl')")()}}`,
  `<style>body{display:none}</style>`,
]
const NICKNAME = `"><svg onload=f()>`
const COMMENT = `评论标记 ${corpus.join(' ')}`
const NOTE = `笔记标记 ${corpus.join(' ')}`
const REASON = `退款标记 ${corpus.slice(0, 3).join(' ')}`.slice(0, 200)
const KEYWORD = `<img src=x onerror=f()>`

/** Arms the page: `f` records any payload that runs, and every CSP violation is kept. */
async function arm(page: Page) {
  await page.context().addInitScript(() => {
    const w = window as unknown as { f: (k?: string) => void; __xss: string[]; __csp: string[] }
    w.__xss = []
    w.__csp = []
    w.f = (k = 'f') => void w.__xss.push(k)
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    )
  })
  const console: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) console.push(m.text())
  })
  return console
}

/** The page's text as a person reads it, with its title and what its inputs hold (where a search keyword shows). */
const shownText = () =>
  [document.title, document.body.innerText, ...[...document.querySelectorAll('input')].map((i) => i.value)].join('\n')

/** Opens a page, waits until `shows` is on it as text, and checks that nothing of the corpus became markup. */
async function expectInert(
  page: Page,
  url: string,
  shows: string,
  cspConsole: string[],
  name: string,
  prepare?: () => Promise<void>,
) {
  await page.goto(url)
  await prepare?.()
  await expect
    .poll(() => page.evaluate(shownText), { timeout: 15_000, message: `${url} shows ${shows}` })
    .toContain(shows)
  await page.waitForLoadState('networkidle')
  const found = await page.evaluate(() => {
    const w = window as unknown as { __xss: string[]; __csp: string[] }
    return {
      ran: w.__xss,
      csp: w.__csp,
      injected: [
        ...document.querySelectorAll('[data-xss], [onload], [onerror], iframe[srcdoc], a[href^="javascript:"]'),
      ].map((el) => el.outerHTML.slice(0, 120)),
    }
  })
  await shot(page, `xss-${name}`)
  expect(found, url).toEqual({ ran: [], csp: [], injected: [] })
  expect(cspConsole, url).toEqual([])
}

describe('stored XSS payloads render as text', () => {
  it(
    'in nickname, comments, notes, refund reasons and search, on every page that shows them',
    { timeout: 120_000 },
    async () => {
      const token = await signIn()
      // A paid series course of the demo catalogue, with lessons and a comments section.
      const course = await courseByTitle('剪映手机剪辑从入门到精通')
      const video = course.chapters.flatMap((c) => c.videos)[0]!

      const { page } = await openDevice('phone', token)
      const cspConsole = await arm(page)

      // Stored through the API, as the screens would send them.
      expect((await call('POST', '/center/updateMemberInfo', { token, body: { nickname: NICKNAME } })).code).toBe(200)
      const comment = await call<{ id: number }>('POST', '/comment', {
        token,
        body: { course_id: course.id, content: COMMENT },
      })
      expect(comment.code).toBe(200)
      const orderNo = await buyWithH5(page, token, '/pay/course', { course_id: course.id })
      expect(
        (await call('POST', '/video/note', { token, body: { vid: video.id, second: 1, content: NOTE } })).code,
      ).toBe(200)
      expect((await call('POST', '/refunds', { token, body: { order_no: orderNo, reason: REASON } })).code).toBe(200)

      await expectInert(page, '/mine', NICKNAME, cspConsole, 'mine')
      await expectInert(page, `/course/${course.id}`, '评论标记', cspConsole, 'course', () =>
        // The comments section loads when it comes near the screen.
        page.getByTestId('course-comments').scrollIntoViewIfNeeded(),
      )
      await expectInert(page, `/course/commentDetail?id=${comment.data.id}`, '评论标记', cspConsole, 'comment-detail')
      await expectInert(page, '/mine/comment', '评论标记', cspConsole, 'my-comments')
      await expectInert(page, `/refund/${orderNo}`, '退款标记', cspConsole, 'refund')
      await expectInert(page, `/searchCourse?keyword=${encodeURIComponent(KEYWORD)}`, KEYWORD, cspConsole, 'search')
      // The search screen lists the keyword in its history.
      await expectInert(page, '/search', KEYWORD, cspConsole, 'search-history')

      // The player's notes panel.
      await page.goto(`/v/${video.id}`)
      await page.getByText('笔记', { exact: true }).first().click()
      await expect.poll(() => page.evaluate(() => document.body.innerText), { timeout: 15_000 }).toContain('笔记标记')
      const player = await page.evaluate(() => {
        const w = window as unknown as { __xss: string[]; __csp: string[] }
        return {
          ran: w.__xss,
          csp: w.__csp,
          injected: [
            ...document.querySelectorAll('[data-xss], [onload], [onerror], iframe[srcdoc], a[href^="javascript:"]'),
          ].map((el) => el.outerHTML.slice(0, 120)),
        }
      })
      await shot(page, 'xss-notes')
      expect(player).toEqual({ ran: [], csp: [], injected: [] })
      expect(cspConsole).toEqual([])
    },
  )
})
