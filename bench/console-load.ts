// `npm run bench:console-load`: how long the operator console takes to open a screen from a full page load (the
// production build on a fresh embedded database with the demo content; Debian's chromium, headless, 1280×800), timed
// from navigation to the screen drawn with its data: the dashboard's figures, a list's rows. Each screen first in a
// fresh browser context (nothing cached), then reloaded in one that has opened it twice (scripts from the HTTP
// cache, compiled code from V8's); each at the machine's speed, at a 4× slower CPU (Chromium's throttling, a
// modest laptop) and across an office line (Chromium's network emulation: 60 ms round trips, 20 Mbit/s). BENCH_ROUNDS (5) rounds: the median and the spread, and when /api/admin/me and the screen's data
// were asked for. Figures, not assertions: docs/performance.md ("The console's first load") records them.
// BUILD_DIR=… measures another build.
import { chromium, type Page } from 'playwright-core'
import { connectDatabase } from '#server/db/database.ts'
import { issueSession } from '#server/modules/sessions/session.service.ts'
import { startServer } from '#tests/support/spawn-server.ts'

const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const screens = [
  ['dashboard', '/admin'],
  ['members', '/admin/members'],
  ['orders', '/admin/sales/orders'],
] as const
/** Where the browser runs: this machine at its speed, at a 4× slower CPU, and across an office line to the server. */
const settings = [
  { name: 'CPU 1×', cpu: 1, network: null },
  { name: 'CPU 4×', cpu: 4, network: null },
  { name: '60 ms, 20 Mbit/s', cpu: 1, network: { latency: 60, down: 20e6 / 8, up: 5e6 / 8 } },
]
type Setting = (typeof settings)[number]

const server = await startServer({ name: 'zixue-bench-console-load', logToFile: true })
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
})
try {
  const token = await adminToken()
  const times = new Map<string, { total: number; me: number; data: number }[]>()
  for (let round = 0; round < rounds; round++) {
    for (const reload of [false, true]) {
      for (const setting of settings) {
        for (const [name, path] of screens) {
          const key = `${name.padEnd(9)} ${setting.name.padEnd(16)} ${reload ? 'reloaded' : 'first   '}`
          const list = times.get(key) ?? []
          list.push(await open(path, setting, token, reload))
          times.set(key, list)
        }
      }
    }
  }
  console.log(`The console's first load, ${rounds} rounds (ms from navigation; median, fastest–slowest):`)
  for (const [key, list] of times) {
    const median = (f: (t: (typeof list)[number]) => number) => list.map(f).sort((a, b) => a - b)[list.length >> 1]!
    const totals = list.map((t) => t.total)
    console.log(
      `  ${key}  drawn with its data ${median((t) => t.total)} (${Math.min(...totals)}–${Math.max(...totals)})` +
        `   /api/admin/me asked at ${median((t) => t.me)}   the screen's data asked at ${median((t) => t.data)}`,
    )
  }
} finally {
  await browser.close()
  await server.stop()
}

/** A signed-in admin's token: a member made an admin in the database, with a session (no phone, no SMS). */
async function adminToken() {
  const database = await connectDatabase(server.databaseUrl, 1, undefined, { migrate: false })
  try {
    const one = async (text: string, values: unknown[] = []) =>
      (await database.pool.query<{ id: number }>(text, values)).rows[0]!.id
    const admin = await one(`insert into members (nickname) values ('压测运营') returning id`)
    await one(`insert into member_roles (member_id, role) values ($1, 'admin') returning member_id as id`, [admin])
    return (await issueSession(database.db, admin, 2, new Date())).token
  } finally {
    await database.close()
  }
}

/** Opens a console address in a fresh context signed in with the token: the milliseconds until it is drawn. */
async function open(path: string, setting: Setting, token: string, reload: boolean) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' })
  await context.addInitScript((t) => {
    localStorage.setItem('zx_token', JSON.stringify({ token: t, expire: Date.now() + 3600_000 }))
  }, token)
  try {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: setting.cpu })
    if (setting.network) {
      const { latency, down, up } = setting.network
      await cdp.send('Network.enable')
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency,
        downloadThroughput: down,
        uploadThroughput: up,
      })
    }
    await page.goto(server.baseUrl + path)
    if (reload) {
      // V8's code cache is written when a script runs a second time: two loads before the one timed.
      for (let i = 0; i < 2; i++) {
        await drawn(page)
        await page.reload()
      }
    }
    await drawn(page)
    return await page.evaluate(() => {
      const total = Math.round(performance.now())
      const asked = (test: (path: string) => boolean) => {
        const entry = performance
          .getEntriesByType('resource')
          .find((e) => e.name.includes('/api/admin/') && test(new URL(e.name).pathname))
        return entry ? Math.round(entry.startTime) : NaN
      }
      return { total, me: asked((p) => p === '/api/admin/me'), data: asked((p) => p !== '/api/admin/me') }
    })
  } finally {
    await context.close()
  }
}

async function drawn(page: Page) {
  // Drawn: a list's rows (or its empty row) or the dashboard's figures, and no part still loading.
  await page.waitForFunction(
    () =>
      document.querySelector('.ant-table-tbody tr, .zx-dash-figure .ant-statistic') !== null &&
      document.querySelectorAll('.ant-spin-spinning, .ant-card-loading, .zx-dash-chart-wait').length === 0,
    null,
    { timeout: 60_000, polling: 20 },
  )
}
