import { describe, expect, it } from 'vitest'
import { useTestApp } from '#tests/support/app.ts'

/**
 * Inline scripts run only with this response's nonce (no 'unsafe-inline'), on pages rendered for one visitor and on
 * public pages served from the page cache, where the shared body gets each answer's own nonce. Needs the production
 * build (`npm test` builds before the unit tests).
 */
describe('CSP nonce for inline scripts', () => {
  const t = useTestApp({ SEED_DEMO: 'true' }, { web: 'production' })

  async function page(url: string) {
    const res = await t().app.inject({ method: 'GET', url })
    const csp = String(res.headers['content-security-policy'])
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'))!
    const nonce = /'nonce-([^']+)'/.exec(scriptSrc)?.[1]
    const scripts = [...res.body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])
    return { res, scriptSrc, nonce, scripts }
  }

  it.each(['/', '/mine'])('gives %s a fresh nonce that every inline script carries', async (url) => {
    const first = await page(url)
    const second = await page(url)
    for (const answer of [first, second]) {
      expect(answer.res.statusCode).toBe(200)
      expect(answer.scriptSrc).not.toContain("'unsafe-inline'")
      expect(answer.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
      expect(answer.scripts.length).toBeGreaterThan(0)
      for (const tag of answer.scripts.filter((s) => !/\bsrc=/.test(s)))
        expect(tag).toContain(`nonce="${answer.nonce}"`)
      expect(answer.res.body).not.toContain('zx-nonce-')
    }
    expect(second.nonce).not.toBe(first.nonce)
    expect(second.res.body).not.toContain(first.nonce)
  })

  it('ignores a nonce a client sends in the header the server uses to pass it on', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/mine', headers: { 'x-zx-csp-nonce': 'chosen' } })
    expect(res.body).not.toContain('nonce="chosen"')
  })
})
