import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { phone, shot } from './support/browser.ts'

/** Overlays would cover the screens this journey is about: mark them seen. */
async function skipOverlays(page: Page, baseUrl: string) {
  const res = await fetch(`${baseUrl}/api/systemOverlay`)
  const { data } = (await res.json()) as { data: { list: { so_id: number }[] } }
  const { hostname } = new URL(baseUrl)
  await page
    .context()
    .addCookies(data.list.map((o) => ({ name: `so_seen_${o.so_id}`, value: '1', domain: hostname, path: '/' })))
}

/** The development outbox (console SMS provider) holds the codes "sent" to a phone, newest first. */
async function latestCode(baseUrl: string, phoneNumber: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/dev/outbox?phone=${phoneNumber}`)
  const { data } = (await res.json()) as { data: { list: { phone: string; code: string; sent_at: string }[] } }
  const mine = data.list.filter((m) => m.phone === phoneNumber).sort((a, b) => b.sent_at.localeCompare(a.sent_at))
  if (!mine[0]) throw new Error(`no code in the outbox for ${phoneNumber}`)
  return mine[0].code
}

async function courseIdByTitle(baseUrl: string, title: string) {
  const res = await fetch(`${baseUrl}/api/searchCourse?keyword=${encodeURIComponent(title)}`)
  const { data } = (await res.json()) as { data: { list: { id: number; title: string }[] } }
  const hit = data.list.find((c) => c.title === title)
  if (!hit) throw new Error(`no course ${title}`)
  return hit.id
}

/** Signs a phone in through the API (code from the outbox); the token record as the app stores it. */
async function apiLogin(baseUrl: string, phoneNumber: string) {
  const post = (path: string, body: unknown) =>
    fetch(`${baseUrl}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  await post('/send_code', { phone: phoneNumber })
  const res = await post('/login', {
    phone: phoneNumber,
    phone_code: await latestCode(baseUrl, phoneNumber),
    platform: 2,
  })
  const { data } = (await res.json()) as { data: { token: string; expire_in: number } }
  return { token: data.token, expire: Date.now() + data.expire_in * 1000 }
}

const toast = (page: Page, text: string) => page.locator('.adm-toast-main', { hasText: text })

/** No element sticks out sideways at this width. */
async function expectNoHorizontalOverflow(page: Page) {
  const wide = await page.evaluate(() => {
    const limit = document.documentElement.clientWidth
    if (document.documentElement.scrollWidth <= limit) return []
    return [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > limit + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName}.${el.className} right=${Math.round(el.getBoundingClientRect().right)}`)
  })
  expect(wide, page.url()).toEqual([])
}

describe('a learner favourites, comments, likes, searches and finds', () => {
  it('signs in, favourites a course, sees it on /myCollection, comments, likes, searches 剪映 and finds it highlighted', async () => {
    const { page, context, baseUrl } = await phone()
    await skipOverlays(page, baseUrl)
    const problems: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${m.text()} ${m.location().url}`)
    })
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`)
    })
    const title = '剪映手机剪辑从入门到精通'
    const courseId = await courseIdByTitle(baseUrl, title)

    // Anonymous: /myCollection asks for a login; the popup signs in with an SMS code from the outbox.
    await page.goto('/myCollection')
    await page.getByRole('button', { name: '登录 / 注册' }).click()
    const popup = page.getByTestId('login-popup')
    await expect.poll(() => popup.isVisible()).toBe(true)
    const number = '13712345601'
    await popup.getByPlaceholder('请输入手机号').fill(number)
    await popup.getByTestId('send-code').click()
    await expect.poll(() => popup.getByTestId('send-code').textContent()).toMatch(/^\d+s$/)
    await popup.getByPlaceholder('请输入验证码').fill(await latestCode(baseUrl, number))
    await popup.getByRole('checkbox', { name: /我已阅读并同意/ }).check()
    await popup.getByRole('button', { name: '登录', exact: true }).click()
    await expect
      .poll(() => page.getByText('还没有收藏的课程', { exact: false }).isVisible(), { timeout: 10_000 })
      .toBe(true)
    // The empty state recommends popular courses.
    await expect.poll(() => page.getByRole('heading', { name: '为你推荐' }).isVisible()).toBe(true)
    await shot(page, 'community-favourites-empty')

    // Favourite the course from its page (the heart in the title bar).
    await page.goto(`/course/${courseId}.html`)
    const heart = page.getByTestId('favourite-button')
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('false')
    await heart.click()
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('true')
    await expect.poll(() => toast(page, '已收藏').isVisible()).toBe(true)
    await shot(page, 'community-course-favourited')

    // /myCollection lists it, with the total of the unowned paid favourites.
    await page.goto('/myCollection')
    const list = page.getByTestId('favourites-list')
    await expect.poll(() => list.getByText(title).isVisible()).toBe(true)
    await expect.poll(() => page.getByTestId('fav-calc').textContent()).toMatch(/1 门未购课程，合计¥69/)
    expect(await page.getByRole('button', { name: '一起购买' }).isEnabled()).toBe(true)
    await expectNoHorizontalOverflow(page)
    await shot(page, 'community-favourites')

    // Comment on the course: the section loads near the screen; the composer posts; the comment shows.
    await page.goto(`/course/${courseId}.html`)
    const comments = page.getByTestId('course-comments')
    await comments.scrollIntoViewIfNeeded()
    const box = comments.getByRole('textbox', { name: '评论内容' })
    await expect.poll(() => box.isVisible()).toBe(true)
    const text = '音乐卡点那节讲得太清楚了 <b>不是粗体</b>'
    await box.fill(text)
    await comments.getByRole('button', { name: '发布' }).click()
    await expect.poll(() => toast(page, '评论成功').isVisible()).toBe(true)
    const mine = comments.getByTestId('comment').filter({ hasText: '讲得太清楚了' })
    await expect.poll(() => mine.count()).toBe(1)
    // Stored and shown as text: the markup is visible, not rendered.
    expect(await mine.locator('p').first().textContent()).toContain('<b>不是粗体</b>')
    expect(await mine.locator('b').count()).toBe(0)

    // Like it: the count goes to 1 and the button stays pressed after a reload.
    const like = mine.getByTestId('comment-like')
    // Centre it: the floating service button sits at 78% of the height and may cover the lower part of the screen.
    await like.evaluate((el) => el.scrollIntoView({ block: 'center' }))
    await like.click()
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true')
    expect((await like.textContent())?.trim()).toBe('1')
    await mine.scrollIntoViewIfNeeded()
    await shot(page, 'community-comment-liked')
    await page.reload()
    await page.getByTestId('course-comments').scrollIntoViewIfNeeded()
    const again = page.getByTestId('comment').filter({ hasText: '讲得太清楚了' }).getByTestId('comment-like')
    await expect.poll(() => again.getAttribute('aria-pressed')).toBe('true')

    // The thread page answers it.
    const reply = page.getByTestId('comment').filter({ hasText: '讲得太清楚了' }).getByRole('link', { name: '回复' })
    await reply.evaluate((el) => el.scrollIntoView({ block: 'center' }))
    await reply.click()
    await page.waitForURL(/\/course\/commentDetail\?id=\d+$/)
    await page.getByRole('textbox', { name: '评论内容' }).fill('补充：卡点要先打节拍点')
    await page.getByRole('button', { name: '发布' }).click()
    await expect.poll(() => page.getByTestId('comment').filter({ hasText: '补充：卡点要先打节拍点' }).count()).toBe(1)
    await expect.poll(() => page.getByRole('heading', { name: /全部回复 \(1\)/ }).isVisible()).toBe(true)
    await shot(page, 'community-comment-thread')

    // My comments lists both.
    await page.goto('/mine/comment')
    await expect.poll(() => page.getByTestId('my-comment').count()).toBe(2)
    await shot(page, 'community-my-comments')

    // Search 剪映 from /search: the course is found with the word highlighted; the keyword joins the history.
    await page.goto('/search')
    await page.getByRole('searchbox', { name: '搜索关键词' }).fill('剪映')
    await page.getByRole('button', { name: '搜索', exact: true }).click()
    await page.waitForURL(/\/searchCourse\?keyword=%E5%89%AA%E6%98%A0$/)
    const result = page.getByTestId('search-result').filter({ hasText: title })
    await expect.poll(() => result.count()).toBe(1)
    expect(await result.locator('mark').first().textContent()).toBe('剪映')
    await expectNoHorizontalOverflow(page)
    await shot(page, 'community-search-results')
    await page.goto('/search')
    const history = page.getByRole('list', { name: '搜索历史' })
    await expect.poll(() => history.getByRole('link', { name: '剪映' }).isVisible()).toBe(true)
    await shot(page, 'community-search')
    await page.getByRole('button', { name: '清空' }).click()
    await expect.poll(() => history.count()).toBe(0)

    // A search that finds nothing says so and offers hot words.
    await page.goto(`/searchCourse?keyword=${encodeURIComponent('量子力学')}`)
    await expect.poll(() => page.getByText('没有找到相关课程').isVisible()).toBe(true)
    expect(await page.getByRole('list', { name: '热门搜索' }).getByRole('link').count()).toBeGreaterThan(0)
    await shot(page, 'community-search-empty')

    // A misspelt keyword finds the word meant, and the page says what it searched instead.
    await page.goto(`/searchCourse?keyword=${encodeURIComponent('photosop')}`)
    await expect.poll(() => page.getByTestId('search-corrected').textContent()).toContain('已为你搜索 photoshop')
    expect(await page.getByTestId('search-result').filter({ hasText: 'Photoshop 零基础入门' }).count()).toBe(1)
    await shot(page, 'community-search-corrected')

    // Batch edit: select the favourite and cancel it; the list is empty again.
    await page.goto('/myCollection')
    await expect.poll(() => list.getByText(title).isVisible()).toBe(true)
    await page.getByRole('button', { name: '管理' }).click()
    await page.getByRole('checkbox', { name: title }).check()
    await shot(page, 'community-favourites-edit')
    await page.getByRole('button', { name: /取消收藏（1）/ }).click()
    await expect.poll(() => toast(page, '已取消收藏 1 项').isVisible()).toBe(true)
    await expect.poll(() => page.getByText('还没有收藏的课程', { exact: false }).isVisible()).toBe(true)

    // Follow the course's teacher.
    await page.goto('/teacher')
    await page.getByRole('link', { name: /周野/ }).click()
    await page.waitForURL(/\/teacher\/\d+$/)
    const follow = page.getByTestId('follow-button')
    const teacherId = Number(new URL(page.url()).pathname.split('/').pop())
    const followers = async () =>
      ((await (await fetch(`${baseUrl}/api/teacher?id=${teacherId}`)).json()) as { data: { follower_count: number } })
        .data.follower_count
    const before = await followers()
    await expect.poll(() => follow.textContent()).toBe('+ 关注')
    await follow.click()
    await expect.poll(() => follow.textContent()).toBe('已关注')
    // A demo teacher brings followers from before the site (about one learner in eight): "1万 人关注".
    await expect.poll(() => page.getByTestId('follower-count').textContent()).toMatch(/^[\d.]+万? 人关注$/)
    expect(await followers()).toBe(before + 1)
    await shot(page, 'community-teacher-followed')

    expect(problems).toEqual([])
    await context.close()
  })

  it('asks an anonymous visitor to log in before commenting or favouriting', async () => {
    const { page, context, baseUrl } = await phone()
    await skipOverlays(page, baseUrl)
    const courseId = await courseIdByTitle(baseUrl, '剪映手机剪辑从入门到精通')
    await page.goto(`/course/${courseId}.html`)
    await page.getByTestId('course-comments').scrollIntoViewIfNeeded()
    await page.getByTestId('comment-login').click()
    await expect.poll(() => page.getByTestId('login-popup').isVisible()).toBe(true)
    await page.keyboard.press('Escape')
    await shot(page, 'community-comments-anonymous')

    // The screens read well on a 360 px phone.
    await page.setViewportSize({ width: 360, height: 740 })
    for (const url of [
      '/search',
      `/searchCourse?keyword=${encodeURIComponent('剪辑')}`,
      '/myCollection',
      '/mine/comment',
      '/course/commentDetail?id=1',
      `/course/${courseId}.html#comments`,
    ]) {
      await page.goto(url)
      await page.waitForLoadState('networkidle')
      await expectNoHorizontalOverflow(page)
    }
    await shot(page, 'community-comments-360')
    await context.close()
  })

  it('counts taps on the VIP and purchased tabs (position 1) and the service button (position 3) only when logged in', async () => {
    const { page, context, baseUrl } = await phone()
    await skipOverlays(page, baseUrl)
    const stats: { path: string; body: { position?: number; page?: string } }[] = []
    page.on('request', (r) => {
      if (r.url().includes('/api/stat/'))
        stats.push({ path: new URL(r.url()).pathname, body: r.postDataJSON() as { position?: number } })
    })
    // The service link is outside; the test stays on the site.
    await context.route(/work\.weixin\.qq\.com/, (route) => route.abort())

    await page.goto('/')
    await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '会员' }).click()
    await page.waitForURL(/\/vip$/)
    await page.waitForTimeout(300)
    expect(stats).toEqual([])

    const record = await apiLogin(baseUrl, '13712345602')
    await context.addInitScript((r) => localStorage.setItem('zx_token', JSON.stringify(r)), record)
    await page.goto('/')
    const nav = page.getByRole('navigation', { name: '主导航' })
    const vip = page.waitForRequest(/\/api\/stat\/vipTarbar\/click$/)
    await nav.getByRole('link', { name: '会员' }).click()
    await vip
    const mine = page.waitForRequest(/\/api\/stat\/myCourse\/click$/)
    await nav.getByRole('link', { name: '已购' }).click()
    await mine
    const customer = page.waitForRequest(/\/api\/stat\/customer\/click$/)
    // Activated from the keyboard: a mouse press held 100 ms or more is not a tap (spec 2), and a loaded machine can
    // hold one that long between Playwright's mousedown and mouseup. The tap itself is shell.e2e.ts's.
    await page.getByTestId('service-button').getByRole('button', { name: '联系客服' }).press('Enter')
    await customer
    expect(stats.map((s) => [s.path, s.body.position])).toEqual([
      ['/api/stat/vipTarbar/click', 1],
      ['/api/stat/myCourse/click', 1],
      ['/api/stat/customer/click', 3],
    ])
    expect(stats[0]!.body.page).toBe('/')
    await context.close()
  })
})
