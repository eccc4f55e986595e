import { describe, expect, it } from 'vitest'
import { useTestApp } from '#tests/support/app.ts'

describe('CSRF: state changes carrying only a cookie', () => {
  const t = useTestApp({ PUBLIC_URL: 'https://zixue.example' })
  const click = (headers: Record<string, string>) =>
    t().app.inject({ method: 'POST', url: '/api/stat/project/click', payload: {}, headers })

  it('refuses a foreign Origin, an opaque one, a foreign Referer, and a cookie with neither header', async () => {
    const cases: Record<string, string>[] = [
      { cookie: 'zx_vid=abc', origin: 'https://evil.example' },
      { cookie: 'zx_vid=abc', origin: 'null' },
      { cookie: 'zx_vid=abc', referer: 'https://evil.example/page' },
      { cookie: 'zx_vid=abc' },
    ]
    for (const headers of cases) {
      const res = await click(headers)
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({ code: 403, msg: '请求来源不明，请刷新页面后重试', data: {} })
    }
  })

  it('lets our own pages through: the public address or the host the request was sent to', async () => {
    expect((await click({ cookie: 'zx_vid=abc', origin: 'https://zixue.example' })).statusCode).toBe(200)
    expect((await click({ cookie: 'zx_vid=abc', referer: 'http://localhost:80/course/1' })).statusCode).toBe(200)
  })

  it('lets through requests with a token header, without cookies, and payment notifications', async () => {
    expect((await click({ cookie: 'zx_vid=abc', 'zxb-token': 'x', origin: 'https://evil.example' })).statusCode).toBe(
      200,
    )
    expect((await click({ origin: 'https://evil.example' })).statusCode).toBe(200)
    // a program: a bearer token, or no cookie, and neither Origin nor Referer
    expect((await click({ cookie: 'zx_vid=abc', authorization: 'Bearer abc' })).statusCode).toBe(200)
    expect((await click({ cookie: 'zx_vid=abc', 'zxb-token': 'x' })).statusCode).toBe(200)
    expect((await click({})).statusCode).toBe(200)
    const notify = await t().app.inject({
      method: 'POST',
      url: '/api/pay/notify/alipay',
      payload: 'x=1',
      headers: { cookie: 'a=b', 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(notify.statusCode).not.toBe(403)
  })

  it('never applies to reads', async () => {
    const res = await t().app.inject({
      method: 'GET',
      url: '/api/hotWords',
      headers: { cookie: 'zx_vid=abc', origin: 'https://evil.example' },
    })
    expect(res.statusCode).toBe(200)
  })
})
