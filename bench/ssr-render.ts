// `npm run bench:ssr-render`: the render alone, in one process — the app's build and the floor's
// (bench/ssr-floor/, built by `npm run bench:ssr`) called through React Router's `createRequestHandler` directly,
// no HTTP, the page services' answers memoised so no SQL runs after the first call. For each page and build:
// WARMUP renders, then RENDERS renders timed one by one with process.cpuUsage(); median CPU per render, repeated
// REPEATS times alternating app and floor. This is the steadiest way to compare the two on a shared machine
// (docs/performance.md, "Render only, in process"); the served comparison is bench/ssr-floor.ts.
// SSR_RENDER_PAGES (comma-separated paths) limits the pages; SSR_RENDER_BUILDS (`app`, `floor`, or paths to
// other builds: `name=dir`) the builds.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router'
import { buildApp } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'
import { connectDatabase } from '#server/db/database.ts'
import { ANONYMOUS_VIEWER } from '#server/http/session-cookie.ts'
import { pageServices } from '#server/page-services.ts'
import { routeSubsets } from '#server/http/route-subsets.ts'
import { buildDir, startServer } from '#tests/support/spawn-server.ts'
import { textDifference } from './visible-text.ts'

if (process.env.NODE_ENV !== 'production') throw new Error('run with NODE_ENV=production (React’s production build)')
const root = path.resolve(import.meta.dirname, '..')
const warmup = Number(process.env.SSR_RENDER_WARMUP ?? 50)
const renders = Number(process.env.SSR_RENDER_RENDERS ?? 300)
const repeats = Number(process.env.SSR_RENDER_REPEATS ?? 3)
const builds = (process.env.SSR_RENDER_BUILDS ?? 'app,floor').split(',').map((spec) => {
  const [name = spec, dir] = spec.split('=')
  const known: Record<string, string> = { app: buildDir, floor: path.join(root, 'bench/results/ssr-floor-build') }
  return { name, dir: path.resolve(root, dir ?? known[name] ?? name) }
})

type Key = Parameters<RouterContextProvider['set']>[0]
type Build = ServerBuild & { entry: { module: Record<string, Key> } }

/** A proxy over the services that keeps each call's answer (by path and arguments): the reads run once. */
function memoised<T extends object>(target: T, at = ''): T {
  const answers = new Map<string, unknown>()
  // One proxy per nested object (s.settings, s.member…), made once: a new one per access would keep no answer.
  const nested = new Map<string | symbol, unknown>()
  return new Proxy(target, {
    get(obj, name, receiver) {
      const value: unknown = Reflect.get(obj, name, receiver)
      if (typeof name === 'symbol') return value
      if (typeof value === 'function')
        return (...args: unknown[]) => {
          const key = `${at}.${name}(${JSON.stringify(args)})`
          if (!answers.has(key)) answers.set(key, (value as (...a: unknown[]) => unknown).apply(obj, args))
          return answers.get(key)
        }
      // Plain data (the configuration) is handed over as it is: a proxy over it would slow every read of it.
      if (value && typeof value === 'object' && Object.values(value).some((v) => typeof v === 'function')) {
        if (!nested.has(name)) nested.set(name, memoised(value, `${at}.${name}`))
        return nested.get(name)
      }
      return value
    },
  })
}

const server = await startServer({ name: 'zixue-bench-ssr-render', logToFile: true })
try {
  const config = loadConfig({ ...process.env, APP_ENV: 'demo', LOG_LEVEL: 'silent', DATABASE_URL: server.databaseUrl })
  const database = await connectDatabase(server.databaseUrl, 5)
  const app = await buildApp(config, { database, logger: false })
  const services = memoised(pageServices(app.services))
  const home = await (await fetch(`${server.baseUrl}/`)).text()
  const courseId = /href="\/course\/(\d+)/.exec(home)?.[1]
  const pages = (process.env.SSR_RENDER_PAGES ?? `/,/boutique,/course/${courseId}.html,/vip`).split(',')

  const handlers = await Promise.all(
    builds.map(async ({ name, dir }) => {
      const file = path.join(dir, 'server/index.js')
      if (!fs.existsSync(file)) throw new Error(`${name}: nothing built in ${dir}`)
      const build = (await import(pathToFileURL(file).href)) as Build
      const { servicesContext, viewerContext, cspNonceContext } = build.entry.module
      if (process.env.SSR_RENDER_ROUTE_PATTERN) {
        const { unstable_preloadRoutePattern } = await import('react-router/route-pattern')
        unstable_preloadRoutePattern()
      }
      const flagged = process.env.SSR_RENDER_ROUTE_PATTERN
        ? { ...build, future: { ...build.future, unstable_routePatternMatching: true } as never }
        : build
      // What server/http/web.ts does: each document request rendered with the route table cut to its first segment.
      const full = createRequestHandler(flagged, 'production')
      const handler = process.env.SSR_RENDER_FULL_TABLE
        ? () => full
        : routeSubsets(flagged).each((b) => createRequestHandler(b, 'production'))
      // The cut is chosen by the request's target (path and query), as web.ts passes Fastify's `request.url`.
      const handle: ReturnType<typeof createRequestHandler> = (request, context) => {
        const { pathname, search } = new URL(request.url)
        return handler('GET', pathname + search)(request, context)
      }
      const context = () => {
        const c = new RouterContextProvider()
        c.set(servicesContext!, services)
        if (viewerContext) c.set(viewerContext, ANONYMOUS_VIEWER)
        // The page cache renders with a stand-in nonce (server/http/web.ts): the same attributes here.
        c.set(cspNonceContext!, 'zx-nonce-0123456789abcdef01234567')
        return c
      }
      return { name, handle, context }
    }),
  )

  console.log(
    `\nRender only, in process — Node ${process.version}, ${warmup} + ${renders} renders × ${repeats} repeats, ` +
      `median CPU per render; load average ${loadAverage()}\n`,
  )
  // SSR_RENDER_DUMP=<dir>: each build's HTML of each page written there (to compare markup and loader data).
  const dump = process.env.SSR_RENDER_DUMP
  if (dump)
    for (const h of handlers)
      for (const page of pages) {
        const res = await h.handle(new Request(`http://localhost${page}`), h.context())
        fs.mkdirSync(dump, { recursive: true })
        fs.writeFileSync(path.join(dump, `${h.name}${page.replaceAll('/', '_')}.html`), await res.text())
      }
  // The floor must show what the app's page shows, or the ratio compares different pages.
  const appHandler = handlers.find((h) => h.name === 'app')
  const floorHandler = handlers.find((h) => h.name === 'floor')
  if (appHandler && floorHandler)
    for (const page of pages) {
      const [a, f] = await Promise.all(
        [appHandler, floorHandler].map(async (h) =>
          (await h.handle(new Request(`http://localhost${page}`), h.context())).text(),
        ),
      )
      const { missing, extra } = textDifference(a!, f!)
      console.log(
        `${page.padEnd(22)} same text as the app's page: ${missing || extra ? `no (floor lacks "${missing}", adds "${extra}")` : 'yes'}`,
      )
    }
  console.log()
  for (const page of pages) {
    const row: Record<string, number[]> = {}
    for (let r = 0; r < repeats; r++)
      for (const h of handlers) {
        const once = async () => {
          const res = await h.handle(new Request(`http://localhost${page}`), h.context())
          if (res.status !== 200) throw new Error(`${h.name} ${page}: ${res.status}`)
          await res.arrayBuffer()
        }
        for (let i = 0; i < warmup; i++) await once()
        const times: number[] = []
        for (let i = 0; i < renders; i++) {
          const before = process.cpuUsage()
          await once()
          const used = process.cpuUsage(before)
          times.push((used.user + used.system) / 1000)
        }
        times.sort((a, b) => a - b)
        row[h.name] = [...(row[h.name] ?? []), times[Math.floor(times.length / 2)]!]
      }
    const line = handlers
      .map((h) => `${h.name} ${(row[h.name] ?? []).map((ms) => ms.toFixed(2)).join(' / ')} ms`)
      .join('   ')
    const a = row.app
    const f = row.floor
    const ratio = a && f ? `   floor/app ${(median(f) / median(a)).toFixed(2)}` : ''
    console.log(`${page.padEnd(22)} ${line}${ratio}`)
  }
  console.log(`\nLoad average at the end ${loadAverage()}`)
  await app.close()
  await database.close()
} finally {
  await server.stop()
}

function median(xs: number[]) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
}

function loadAverage() {
  return os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')
}
