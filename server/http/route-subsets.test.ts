import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router'
import { beforeAll, describe, expect, it } from 'vitest'
import { seedIfEmpty } from '#server/db/seed.ts'
import { pageServices } from '#server/page-services.ts'
import { useTestApp } from '#tests/support/app.ts'
import { buildDir } from '#tests/support/spawn-server.ts'
import { specUrls } from '#tests/spec-urls.ts'
import { ANONYMOUS_VIEWER } from './session-cookie.ts'
import { routeSubsets } from './route-subsets.ts'

type Key = Parameters<RouterContextProvider['set']>[0]
type Build = ServerBuild & { entry: { module: Record<string, Key> } }

/**
 * Issue 11 §3: rendering a document with the route table cut to its first segment (route-subsets.ts) answers
 * exactly as the whole table does — status, headers and HTML byte for byte — for every URL of the spec's route
 * table, the page cache's pages, case and encoding variants and 404s. Uses the production build (`npm test` builds
 * before the unit tests), like first-load-budget.test.ts.
 */
describe('route subsets', () => {
  const t = useTestApp({ BUILD_DIR: buildDir })
  let build: Build
  beforeAll(async () => {
    await seedIfEmpty(t().database.db, { info: () => {} })
    build = (await import(pathToFileURL(path.join(buildDir, 'server/index.js')).href)) as Build
  })

  function context() {
    const { servicesContext, viewerContext, cspNonceContext } = build.entry.module
    const c = new RouterContextProvider()
    c.set(servicesContext!, pageServices(t().app.services))
    c.set(viewerContext!, ANONYMOUS_VIEWER)
    c.set(cspNonceContext!, 'route-subsets-test-nonce')
    return c
  }

  async function answer(handle: ReturnType<typeof createRequestHandler>, url: string) {
    // The target appended to the origin, as web.ts does (`new URL('//x', base)` would read `x` as a host).
    const res = await handle(new Request(`http://localhost${url}`), context())
    return { status: res.status, headers: [...res.headers], body: await res.text() }
  }

  const urls = () => [
    ...specUrls({ course: 1001, teacher: 1, category: 1, other: 1001 }),
    '/course/1001.html',
    '/course/1001',
    '/COURSE/1001.HTML',
    '/Boutique',
    '/%76ip',
    '/vip?x=1',
    '/ke?sort=new',
    '/list/1',
    '/foryou/1',
    '/teacher/1',
    '/v/50022.html',
    '/admin',
    '/admin/members/1',
    '/no-such-page',
    '/course/1001.html/more',
    '/vip/d/1/extra',
    '/n/1001?sp=abc',
    '/home/home?sp=x',
    // Shapes: the second segment a static word or a parameter, trailing and doubled slashes, encoded words.
    '/course/ks',
    '/course/ks/1001',
    '/COURSE/KS/1001',
    '/course/systemCourse?id=1038',
    '/course/%6Bs/1001',
    '/course/%E4%B8%AD.html',
    '/course//1001.html',
    '//course/1001.html',
    '//vip',
    '/course/1001.html/',
    '/vip/',
    '/vip//',
  ]

  it('every URL of the route table answers as with the whole table', async () => {
    const whole = createRequestHandler(build, 'production')
    const cut = routeSubsets(build).each((b) => createRequestHandler(b, 'production'))
    const checked = new Set<number>()
    for (const url of urls()) {
      const expected = await answer(whole, url)
      const actual = await answer(cut('GET', url), url)
      expect(actual, url).toEqual(expected)
      checked.add(expected.status)
    }
    // The list reaches pages, redirects and 404s.
    expect([...checked].sort()).toEqual(expect.arrayContaining([200, 302, 404]))
  })

  it('cuts document requests only, to the routes their path and its parents match', () => {
    const subsets = routeSubsets(build)
    const course = subsets.pick('GET', '/course/1001.html?zb=1')
    // The course page, the tab layout and index route (matched by `/`), the root; no other course/… route.
    expect(course.routes['routes/course/detail']).toBeDefined()
    expect(course.routes.root).toBeDefined()
    expect(course.routes['routes/home/index']).toBeDefined()
    expect(course.routes['routes/category/index']).toBeUndefined()
    expect(course.routes['routes/course/kuaishou']).toBeUndefined()
    expect(course.routes['routes/commerce/course-purchase']).toBeUndefined()
    expect(Object.keys(course.routes).length).toBeLessThanOrEqual(6)
    expect(subsets.pick('GET', '/course/ks/1').routes['routes/course/kuaishou']).toBeDefined()
    expect(Object.keys(course.assets.routes).sort()).toEqual(Object.keys(course.routes).sort())
    // Case and encoding as React Router matches them; the same cut object for every path that keeps the same routes
    // (`1` is a static word of the table, `/form/1`, so `/course/1` has a shape of its own, and the same routes).
    expect(subsets.pick('HEAD', '/Course/1002.html')).toBe(course)
    expect(subsets.pick('GET', '/%63ourse/7')).toBe(course)
    expect(subsets.pick('GET', '/course/1')).toBe(course)
    // Everything else sees every route.
    for (const [method, url] of [
      ['POST', '/course/1001.html'],
      ['GET', '/course/1001.html.data'],
      ['GET', '/__manifest?paths=/course/1'],
      ['GET', '/%E0%A4%A'],
      ['GET', '/course%2F1001.html'],
      ['GET', '//course/1001.html'],
      ['GET', '/course//1001.html'],
      ['GET', `/${'course/'.repeat(12)}1`],
    ] as const)
      expect(subsets.pick(method, url), `${method} ${url}`).toBe(build)
  })
})
