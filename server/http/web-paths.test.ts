import { beforeAll, describe, expect, it } from 'vitest'
import { seedIfEmpty } from '#server/db/seed.ts'
import { useTestApp } from '#tests/support/app.ts'

/**
 * A page's request target is a path, even when it starts with `//`: `//evil.example/boutique` must not be read as
 * the page `/boutique` of the host evil.example (as `new URL(target, base)` would), nor `//boutique` as the home
 * page. React Router's own listener appends the target to the origin; web.ts's renders and route-subsets.ts do too.
 * Needs the production build (`npm test` builds before the unit tests).
 */
describe('page paths that start with //', () => {
  const t = useTestApp({}, { web: 'production' })
  beforeAll(async () => {
    await seedIfEmpty(t().database.db, { info: () => {} })
  })

  it.each(['//evil.example/boutique?x=1', '//boutique', '//evil.example/mine'])(
    '%s is an unknown page',
    async (url) => {
      const res = await t().app.inject({ method: 'GET', url, headers: { host: 'zixue.test' } })
      expect(res.statusCode).toBe(404)
      // React Router saw the whole target as the path (and matched nothing), not a page of another host.
      const path = url.split('?')[0]!.replaceAll('.', '\\.')
      expect(res.body).toMatch(new RegExp(`No route matches URL [\\\\"]+${path}[\\\\"]`))
    },
  )

  it('leaves ordinary pages as they were', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/mine', headers: { host: 'zixue.test' } })
    expect(res.statusCode).toBe(200)
  })
})
