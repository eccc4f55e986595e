import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '#tests/support/app.ts'
import { securityHeadersPlugin } from './security-headers.ts'

describe('security headers', () => {
  const t = useTestApp()

  it('puts the CSP, frame-ancestors, nosniff and Referrer-Policy on an API answer, no HSTS without TLS', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/health' })
    const csp = String(res.headers['content-security-policy'])
    expect(csp).toContain("frame-ancestors 'self'")
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain('https://res.wx.qq.com')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN')
    expect(res.headers['strict-transport-security']).toBeUndefined()
  })

  it('gives API answers one fixed policy, with neither a nonce nor unsafe-inline for scripts', async () => {
    const first = await t().app.inject({ method: 'GET', url: '/api/health' })
    const second = await t().app.inject({ method: 'GET', url: '/api/v2/course_list' })
    const scriptSrc = /script-src ([^;]*)/.exec(String(first.headers['content-security-policy']))?.[1]
    expect(scriptSrc).toBe("'self' https://res.wx.qq.com")
    expect(second.headers['content-security-policy']).toBe(first.headers['content-security-policy'])
  })

  it('puts them on errors too', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/no/such/thing' })
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'")
  })

  it('serves the API explorer outside production', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/docs' })
    expect(res.statusCode).toBeLessThan(400)
  })
})

describe('security headers by the route that answers', () => {
  it('gives an unknown /api/ address that the page catch-all answers the page headers, nonce and all', async () => {
    const app = Fastify()
    await app.register(securityHeadersPlugin, { tls: false, mediaOrigins: [], development: false })
    app.get('/api/known', async () => ({ ok: true }))
    app.get('/*', async () => 'page')
    const scriptSrc = async (url: string) =>
      /script-src ([^;]*)/.exec(
        String((await app.inject({ method: 'GET', url })).headers['content-security-policy']),
      )?.[1]
    expect(await scriptSrc('/api/known')).toBe("'self' https://res.wx.qq.com")
    expect(await scriptSrc('/api/no/such/thing')).toMatch(
      /^'self' 'nonce-[A-Za-z0-9+/]{22}==' https:\/\/res\.wx\.qq\.com$/,
    )
    await app.close()
  })
})

describe('security headers behind TLS with a CDN', () => {
  const t = useTestApp({
    PUBLIC_URL: 'https://zixue.example',
    STORAGE: 's3',
    S3_BUCKET_PUBLIC: 'pub',
    S3_BUCKET_PRIVATE: 'priv',
    S3_ENDPOINT: 'http://127.0.0.1:1',
    S3_PUBLIC_URL: 'https://cdn.zixue.example/media/',
  })

  it('sends HSTS and lets media come from the CDN', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/health' })
    expect(res.headers['strict-transport-security']).toContain('max-age=31536000')
    expect(String(res.headers['content-security-policy'])).toMatch(/media-src [^;]*https:\/\/cdn\.zixue\.example/)
  })
})
