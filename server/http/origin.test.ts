import { describe, expect, it } from 'vitest'
import { headersOf, useCommerceApp, type ApiBody } from '#server/modules/payments/testing.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'
import { visitorOrigin } from './origin.ts'

describe('visitorOrigin (server/http/origin.ts)', () => {
  const trusted = ['192.168.1.20:3000', 'zixue.local']
  it('uses the address the visitor used when its host is trusted', () => {
    expect(visitorOrigin({ host: '192.168.1.20:3000', protocol: 'http' }, 'https://zixue.example.com', trusted)).toBe(
      'http://192.168.1.20:3000',
    )
    expect(visitorOrigin({ host: 'ZIXUE.local', protocol: 'https' }, 'https://zixue.example.com', trusted)).toBe(
      'https://zixue.local',
    )
  })
  it('falls back to PUBLIC_URL for any other host, a port not listed, or junk', () => {
    for (const host of ['evil.example.com', '192.168.1.20:4000', '192.168.1.20', 'a/b@evil.com', ''])
      expect(visitorOrigin({ host, protocol: 'http' }, 'https://zixue.example.com/', trusted)).toBe(
        'https://zixue.example.com',
      )
  })
})

describe('payment return URLs follow the trusted address the visitor used (issue 10 §6)', () => {
  const { t } = useCommerceApp({ TRUSTED_HOSTS: '192.168.1.20:3000', PUBLIC_URL: 'https://zixue.example.com' })

  async function h5Return(host: string) {
    const db = t().database.db
    const m = await makeMember(db)
    const course = await makeCourse(db, { priceFen: 1000 })
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/pay/course',
      headers: { ...headersOf(m.token), host },
      payload: { course_id: course, pay_method: 'wechat_h5' },
    })
    const body = res.json<ApiBody<{ h5_url: string }>>()
    expect(body.code).toBe(200)
    return new URL(body.data.h5_url, 'http://x').searchParams.get('redirect_url')!
  }

  it('a phone on the LAN comes back to the LAN address', async () => {
    expect(await h5Return('192.168.1.20:3000')).toMatch(/^http:\/\/192\.168\.1\.20:3000\/payRedirect\?order_no=/)
  })
  it('an untrusted Host comes back to PUBLIC_URL', async () => {
    expect(await h5Return('evil.example.com')).toMatch(/^https:\/\/zixue\.example\.com\/payRedirect\?order_no=/)
  })
})

describe('WeChat sign-in comes back to the trusted address the visitor used (issue 10 §6)', () => {
  const { t } = useCommerceApp({ TRUSTED_HOSTS: '192.168.1.20:3000', PUBLIC_URL: 'https://zixue.example.com' })

  async function oauthReturn(host: string) {
    const res = await t().app.inject({ method: 'GET', url: '/api/wechat/oauth?path=/mine', headers: { host } })
    expect(res.statusCode).toBe(302)
    return new URL(res.headers.location!).searchParams.get('redirect_uri')!
  }

  it('a phone on the LAN comes back to the LAN address, where its nonce cookie is', async () => {
    expect(await oauthReturn('192.168.1.20:3000')).toBe('http://192.168.1.20:3000/mine?loginCallback=true')
  })
  it('an untrusted Host comes back to PUBLIC_URL', async () => {
    expect(await oauthReturn('evil.example.com')).toBe('https://zixue.example.com/mine?loginCallback=true')
  })
})
