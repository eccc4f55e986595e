// `npm run bench:ssr`: the server render of `/`, `/boutique`, the course page and `/vip` next to the bare React Router
// pages of the same content (bench/ssr-floor/: the same loaders' reads rendered as plain markup showing the same
// text, no app component, no CSS), in one run (issue 11 §3: goal ≥ 0.8× of the floor). Both are served the same way:
// the production server (server/main.ts) with BUILD_DIR pointing at the app's build or at the floor's, on one
// embedded database, so the hooks, the page cache and the render path (server/http/web.ts) are the same code. The
// render rows give each request its own query string (`?zb=N`): the 5-second page cache keys on the whole URL, so
// each is a miss and a real render; the cache rows ask for the bare URL (pages outside the page cache have none).
// Rounds alternate between the two servers; medians of BENCH_ROUNDS. Figures, not assertions: docs/performance.md records them.
// BENCH_SERVER_NODE_ARGS adds node flags to the app's server (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { isPublicPage } from '#server/http/web.ts'
import { startServer, type RunningServer } from '#tests/support/spawn-server.ts'
import { cpuMs } from './process-cpu.ts'
import { textDifference } from './visible-text.ts'

const root = path.resolve(import.meta.dirname, '..')
const seconds = Number(process.env.BENCH_SECONDS ?? 8)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const floorBuild = path.join(root, 'bench/results/ssr-floor-build')
/** Each server's process id by its base URL, for its CPU time. */
const pids: Record<string, number> = {}

interface Line {
  rps: number
  p50: number
  p99: number
  errors: number
  /** The server process's CPU time (user + system) per answered request: steadier than req/s on a shared machine. */
  cpuMs: number
}

// The floor is small (four routes): built on every run so it always matches the installed React Router.
const built = spawnSync('npx', ['react-router', 'build', 'bench/ssr-floor'], {
  cwd: root,
  env: { ...process.env, SSR_FLOOR_BUILD_DIR: floorBuild },
  stdio: ['ignore', 'ignore', 'inherit'],
})
if (built.status !== 0) throw new Error('building bench/ssr-floor failed')

const app = await startServer({
  name: 'zixue-bench-ssr-app',
  logToFile: true,
  nodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
})
let floor: RunningServer | undefined
try {
  floor = await startServer({
    name: 'zixue-bench-ssr-floor',
    logToFile: true,
    databaseUrl: app.databaseUrl,
    env: { BUILD_DIR: floorBuild },
  })
  const home = await (await fetch(`${app.baseUrl}/`)).text()
  const courseId = /href="\/course\/(\d+)/.exec(home)?.[1]
  if (!courseId) throw new Error('no course link on the home page')
  const pages = ['/', '/boutique', `/course/${courseId}.html`, '/vip']
  const servers = { app: app.baseUrl, floor: floor.baseUrl }
  pids[app.baseUrl] = app.child.pid!
  pids[floor.baseUrl] = floor.child.pid!

  console.log(
    `\nServer render vs the bare React Router floor — ${os.cpus().length} cores, Node ${process.version}, ` +
      `${connections} connections, ${seconds} s × ${rounds} rounds (medians), load average ${loadAverage()}\n`,
  )
  const results: Record<string, unknown> = { date: new Date().toISOString(), seconds, connections, rounds }
  for (const page of pages) {
    const size = { app: await pageSize(servers.app, page), floor: await pageSize(servers.floor, page) }
    const lines = await alternate(servers, page)
    const ratio = Math.round((lines.app.rps / lines.floor.rps) * 100) / 100
    const cpuRatio = Math.round((lines.floor.cpuMs / lines.app.cpuMs) * 100) / 100
    const cached = isPublicPage(page) ? await measure(servers.app + page, false, seconds) : null
    results[page] = { render: lines, ratio, cpuRatio, cached, size }
    console.log(
      `${page}  (HTML ${kb(size.app.html)} vs ${kb(size.floor.html)}, loader data ${kb(size.app.data)} vs ${kb(size.floor.data)})`,
    )
    const text = textDifference(
      await (await fetch(servers.app + page)).text(),
      await (await fetch(servers.floor + page)).text(),
    )
    const same = text.missing || text.extra ? `no: the floor lacks "${text.missing}", adds "${text.extra}"` : 'yes'
    console.log(`  same text as the app's page: ${same}`)
    console.log(`  render, app     ${show(lines.app)}`)
    console.log(`  render, floor   ${show(lines.floor)}`)
    console.log(
      `  ratio app/floor ${ratio.toFixed(2)} by req/s, ${cpuRatio.toFixed(2)} by CPU per request  (goal ≥ 0.80)`,
    )
    console.log(`  page cache, app ${cached ? show(cached) : '— not in the page cache: every request renders'}`)
  }
  results.loadAverageAfter = loadAverage()
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true })
  fs.writeFileSync(path.join(root, 'bench/results/ssr-floor.json'), JSON.stringify(results, null, 2))
  console.log(`\nLoad average at the end ${loadAverage()}. Written to bench/results/ssr-floor.json`)
} finally {
  // The floor uses the app server's embedded database: stop it first.
  await floor?.stop()
  await app.stop()
}

/** Warm-up, then rounds alternating app and floor on unique URLs (renders); medians per side. */
async function alternate(servers: { app: string; floor: string }, page: string) {
  const runs: Record<'app' | 'floor', Line[]> = { app: [], floor: [] }
  for (const side of ['app', 'floor'] as const) await measure(servers[side] + page, true, 2)
  for (let round = 0; round < rounds; round++)
    for (const side of ['app', 'floor'] as const) runs[side].push(await measure(servers[side] + page, true, seconds))
  return { app: medianLine(runs.app), floor: medianLine(runs.floor) }
}

/** One load; `render` gives every request its own query string so the page cache never answers. */
async function measure(url: string, render: boolean, duration: number): Promise<Line> {
  const { pathname, origin } = new URL(url)
  let n = 0
  const cpuBefore = cpuMs(pids[origin]!)
  const r = await autocannon({
    url,
    connections,
    duration,
    headers: { 'accept-encoding': 'identity' },
    requests: render ? [{ setupRequest: (req) => ({ ...req, path: `${pathname}?zb=${n++}` }) }] : undefined,
  })
  const cpu = (cpuMs(pids[origin]!) - cpuBefore) / Math.max(1, r.requests.total)
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
    cpuMs: Math.round(cpu * 100) / 100,
  }
}

function medianLine(lines: Line[]): Line {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  return {
    rps: median(lines.map((l) => l.rps)),
    p50: median(lines.map((l) => l.p50)),
    p99: median(lines.map((l) => l.p99)),
    errors: lines.reduce((s, l) => s + l.errors, 0),
    cpuMs: median(lines.map((l) => l.cpuMs)),
  }
}

/** The HTML's size and the part of it that is serialised loader data (React Router's stream of it). */
async function pageSize(base: string, page: string) {
  const res = await fetch(`${base}${page}${page.includes('?') ? '&' : '?'}zb=size`)
  if (res.status !== 200) throw new Error(`${base}${page} answered ${res.status}`)
  const html = await res.text()
  const data = [...html.matchAll(/streamController\.enqueue\(([\s\S]*?)\);?<\/script>/g)]
  return { html: Buffer.byteLength(html), data: data.reduce((s, m) => s + Buffer.byteLength(m[1]!), 0) }
}

function show(l: Line) {
  const errors = l.errors ? `   errors ${l.errors}` : ''
  return `${String(l.rps).padStart(6)} req/s   p50 ${l.p50} ms   p99 ${l.p99} ms   CPU ${l.cpuMs.toFixed(2)} ms/request${errors}`
}

function kb(bytes: number) {
  return `${(bytes / 1024).toFixed(1)} KB`
}

function loadAverage() {
  return os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')
}
