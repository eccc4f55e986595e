import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { phone, shot, skipOverlays } from './support/browser.ts'
import { call, latestCode, newPhone } from './support/commerce.ts'

/** The API requests a page makes from the moment it is opened with a full load until the network is idle. */
async function apiRequestsOf(page: Page, url: string) {
  const asked: string[] = []
  const listen = (request: { url(): string }) => {
    const path = new URL(request.url()).pathname
    if (path.startsWith('/api/')) asked.push(path.slice(4))
  }
  page.on('request', listen)
  const response = await page.goto(url, { waitUntil: 'networkidle' })
  page.off('request', listen)
  return { html: (await response?.text()) ?? '', asked }
}

const MEMBER_READS = ['/userinfo', '/v2/vip', '/center/my_album', '/center/study_record', '/center/fav', '/fav/calc']

describe('member pages load in one round (issue 11 §4)', () => {
  it('signs in, then /mine arrives with the name and VIP in its HTML and asks the API nothing about the member', async () => {
    const { page, context } = await phone()
    await skipOverlays(context)
    const number = newPhone()

    // Sign in through the login popup on /mine: the answer sets the session cookie (HttpOnly: not in document.cookie).
    await page.goto('/mine')
    await page.getByRole('button', { name: '登录 / 注册' }).click()
    const popup = page.getByTestId('login-popup')
    await popup.getByPlaceholder('请输入手机号').fill(number)
    await popup.getByTestId('send-code').click()
    await expect.poll(() => latestCode(number).catch(() => null)).not.toBeNull()
    await popup.getByPlaceholder('请输入验证码').fill(await latestCode(number))
    await popup.getByRole('checkbox', { name: /我已阅读并同意/ }).check()
    const reloaded = page.waitForEvent('load', { timeout: 15_000 })
    await popup.getByRole('button', { name: '登录', exact: true }).click()
    await reloaded
    const cookies = await context.cookies()
    expect(cookies.find((c) => c.name === 'zx_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' })
    expect(await page.evaluate(() => document.cookie)).not.toContain('zx_session')

    // A nickname of their own (through the API: the journey is about loading, not editing).
    const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('zx_token')!) as { token: string }).token)
    await call('POST', '/center/updateMemberInfo', { token, body: { nickname: '一次到齐' } })

    // A full load of /mine: the server's HTML has the name; no member request follows hydration.
    const mine = await apiRequestsOf(page, '/mine')
    expect(mine.html).toContain('一次到齐')
    expect(mine.html).toContain('data-testid="mine-vip"')
    expect(mine.html).toContain('开通 VIP 会员')
    expect(mine.asked.filter((p) => MEMBER_READS.includes(p))).toEqual([])
    await expect.poll(() => page.getByTestId('mine-nickname').textContent()).toBe('一次到齐')
    await shot(page, 'member-pages-mine')

    // The other member pages, the same way (the counts go to docs/performance.md).
    const counts: Record<string, string[]> = { '/mine': mine.asked }
    for (const url of ['/ke1', '/studyRecord', '/myCollection']) {
      const { asked } = await apiRequestsOf(page, url)
      counts[url] = asked
      expect(
        asked.filter((p) => MEMBER_READS.includes(p) || p === '/course/owned'),
        url,
      ).toEqual([])
    }
    console.log('API requests after a full load, signed in:', JSON.stringify(counts))

    // A client navigation gets the member's data in the loader's answer, not from the API.
    const asked: string[] = []
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname
      if (path.startsWith('/api/')) asked.push(path)
    })
    await page.goto('/ke1', { waitUntil: 'networkidle' })
    asked.length = 0
    await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '我的' }).click()
    await expect.poll(() => page.getByTestId('mine-nickname').textContent()).toBe('一次到齐')
    expect(asked.filter((p) => MEMBER_READS.includes(p.slice(4)))).toEqual([])

    // Logout clears the cookie: the next full load is the anonymous page.
    await page.getByRole('button', { name: '退出登录' }).click()
    await expect.poll(async () => (await context.cookies()).some((c) => c.name === 'zx_session')).toBe(false)
    const after = await apiRequestsOf(page, '/mine')
    expect(after.html).not.toContain('一次到齐')
    await context.close()
  })
})
