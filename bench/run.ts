// `npm run bench`: starts the production server on a fresh embedded database with the demo content and prints
// throughput, latency, first-load bytes and memory. Figures, not assertions: record them in docs/performance.md.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import autocannon from 'autocannon'
import { startServer } from '#tests/support/spawn-server.ts'
import { accessLog, accessLogEveryLine, measureSettingCost, rateLimit } from './setting-cost.ts'

const root = path.resolve(import.meta.dirname, '..')
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)

const server = await startServer({ name: 'zixue-bench' })
const base = server.baseUrl

try {
  const home = await (await fetch(`${base}/`)).text()
  const courseId = /href="\/course\/(\d+)/.exec(home)?.[1]
  if (!courseId) throw new Error('no course link on the home page')

  const rssBefore = rssMb(server.child.pid!)
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    node: process.version,
    seconds,
    connections,
  }

  const targets: [string, string][] = [
    ['API GET /api/v3/index', '/api/v3/index'],
    [`API GET /api/course?id=${courseId}`, `/api/course?id=${courseId}`],
    ['SSR /', '/'],
    [`SSR /course/${courseId}.html`, `/course/${courseId}.html`],
  ]
  console.log(
    `\nZixue benchmark — ${results.machine as string}, Node ${process.version}, ${connections} connections, ${seconds} s each\n`,
  )
  for (const [name, url] of targets) {
    await load(url, 2) // warm up
    const r = await load(url, seconds)
    const line = {
      rps: Math.round(r.requests.average),
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.non2xx,
    }
    results[name] = line
    console.log(
      `${name.padEnd(36)} ${String(line.rps).padStart(6)} req/s   p50 ${line.p50} ms   p99 ${line.p99} ms   errors ${line.errors}`,
    )
  }

  const costs = [
    ['access log cost', 'Access log at info vs off', accessLog],
    ['access log every line cost', 'Every line logged vs off', accessLogEveryLine],
    ['rate limit cost', 'Rate limit on vs off', rateLimit],
  ] as const
  for (const [key, label, setting] of costs) {
    const cost = await measureSettingCost(setting, '/api/v3/index', seconds, connections)
    results[key] = cost
    console.log(
      `${`${label} (/api/v3/index)`.padEnd(36)} ${cost.rpsOn} vs ${cost.rpsOff} req/s   cost ${(cost.cost * 100).toFixed(1)}%;` +
        ` CPU ${cost.cpuOn} vs ${cost.cpuOff} µs/request   cost ${(cost.cpuCost * 100).toFixed(1)}% (goal ≤ 5%);` +
        ` two identical servers differ by ${(cost.noise.rps * 100).toFixed(1)}% and ${(cost.noise.cpu * 100).toFixed(1)}%`,
    )
  }

  console.log('\nFirst-load bytes (gzip):')
  for (const page of ['/', `/course/${courseId}.html`, `/course/coursePurchase?course_id=${courseId}`, '/foryou/1']) {
    const weight = await pageWeight(page)
    results[`weight ${page}`] = weight
    console.log(`  ${page.padEnd(40)} JS ${kb(weight.js)}   CSS ${kb(weight.css)}   HTML ${kb(weight.html)}`)
  }
  const rssAfter = rssMb(server.child.pid!)
  results.memory = { rssMbIdle: rssBefore, rssMbAfterLoad: rssAfter }
  console.log(`\nServer memory (RSS): ${rssBefore} MB idle, ${rssAfter} MB after the load`)

  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true })
  fs.writeFileSync(path.join(root, 'bench/results/latest.json'), JSON.stringify(results, null, 2))
  console.log('\nWritten to bench/results/latest.json')
} finally {
  await server.stop()
}

function load(url: string, duration: number) {
  return autocannon({ url: base + url, connections, duration, headers: { 'accept-encoding': 'identity' } })
}

function rssMb(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024)
}

function kb(bytes: number) {
  return `${(bytes / 1024).toFixed(1)} KB`
}

/** What a browser loads before the page is interactive: the HTML, its module preloads and stylesheets. */
async function pageWeight(page: string) {
  const html = await (await fetch(base + page)).text()
  const gz = (s: string | Buffer) => zlib.gzipSync(s, { level: 9 }).length
  const js = [
    ...html.matchAll(/<(?:link rel="modulepreload"|script[^>]*type="module")[^>]*(?:href|src)="([^"]+\.js)"/g),
  ].map((m) => m[1]!)
  // Attributes in any order: the CSP nonce comes first on the stylesheets.
  const css = [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+\.css)"/g)].map((m) => m[1]!)
  const inlineModules = [...html.matchAll(/import\("([^"]+\.js)"\)/g)].map((m) => m[1]!)
  const jsFiles = [...new Set([...js, ...inlineModules])]
  let jsBytes = 0
  for (const f of jsFiles) jsBytes += gz(Buffer.from(await (await fetch(base + f)).arrayBuffer()))
  let cssBytes = 0
  for (const f of new Set(css)) cssBytes += gz(Buffer.from(await (await fetch(base + f)).arrayBuffer()))
  return { html: gz(html), js: jsBytes, css: cssBytes, jsFiles: jsFiles.length }
}
