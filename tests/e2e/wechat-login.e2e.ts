import { describe, expect, it } from 'vitest'
import { phone, shot } from './support/browser.ts'

interface TokenRecord {
  token: string
  expire: number
}

describe('signing in inside WeChat through the OAuth simulator', () => {
  it('goes from /wechatLogin through the consent page back to /mine, signed in', async () => {
    const { page, context, baseUrl } = await phone({ wechat: true })
    const nickname = `微信同学${Date.now() % 10000}`

    await page.goto('/wechatLogin?path=/mine')
    // The page sends the phone on to WeChat's (simulated) consent screen by itself.
    await page.waitForURL(/\/__sim\/wechat\/connect\/oauth2\/authorize\?/)
    await expect.poll(() => page.title()).toBe('微信授权')
    const authorize = new URL(page.url())
    expect(authorize.searchParams.get('scope')).toBe('snsapi_userinfo')
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${baseUrl}/mine?loginCallback=true`)
    await page.getByRole('textbox', { name: '昵称' }).fill(nickname)
    expect(await page.getByRole('radio', { name: '其他昵称' }).isChecked()).toBe(true)
    await shot(page, 'wechat-consent')

    const before = Date.now()
    await page.getByRole('button', { name: '允许' }).click()

    // Back on /mine: the code is exchanged, then code, state and loginCallback leave the address bar.
    await page.waitForURL((url) => url.pathname === '/mine' && !url.search.includes('code='), { timeout: 15_000 })
    const record = await page.waitForFunction(() => localStorage.getItem('zx_token'))
    const stored = JSON.parse((await record.jsonValue()) as string) as TokenRecord
    expect(stored.token).toMatch(/^[\w-]{43}$/)
    expect(stored.expire).toBeGreaterThanOrEqual(before + 30 * 24 * 3600 * 1000 - 60_000)
    expect(stored.expire).toBeLessThanOrEqual(Date.now() + 30 * 24 * 3600 * 1000 + 60_000)
    expect(new URL(page.url()).search).toBe('')

    // The token is a real session for the member WeChat named.
    const res = await fetch(`${baseUrl}/api/userinfo`, { headers: { 'ZXB-Token': stored.token } })
    const body = (await res.json()) as { code: number; data: { nickname?: string } }
    expect(body.code).toBe(200)
    expect(body.data.nickname).toBe(nickname)

    await expect.poll(() => page.getByText(nickname).count(), { timeout: 10_000 }).toBeGreaterThan(0)
    await shot(page, 'wechat-signed-in-mine')
    await context.close()
  })

  it('tells a visitor outside WeChat to open the page in WeChat', async () => {
    const { page, context } = await phone()
    const res = await page.goto('/wechatLogin?path=/mine')
    expect(res?.status()).toBe(200)
    await expect.poll(() => page.getByText('请在微信内点击').count()).toBe(1)
    expect(page.url()).toContain('/wechatLogin')
    await shot(page, 'wechat-login-outside')
    await page.getByRole('link', { name: '返回首页' }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await context.close()
  })
})
