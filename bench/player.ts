// `node bench/player.ts`: the player's figures (issue 3, section 8), printed only: the video page's first-load
// JS (hls.js is a separate, lazy chunk), the time from navigation to the first video frame in Chromium on
// localhost, and requests/s of POST /api/update_play_data at 100 connections with real tokens. Starts the
// production server on a fresh embedded database with the demo content, like bench/run.ts. Record the figures
// in docs/performance.md.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import autocannon from 'autocannon'
import { chromium } from 'playwright-core'
import { connectDatabase } from '#server/db/database.ts'
import { members } from '#server/db/schema/members.ts'
import { issueSession } from '#server/modules/sessions/session.service.ts'
import { buildDir, startServer } from '#tests/support/spawn-server.ts'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100)
const frameRuns = Number(process.env.BENCH_FRAME_RUNS ?? 5)

const server = await startServer({ name: 'zixue-bench-player' })
const base = server.baseUrl

const gz = (b: Buffer | string) => zlib.gzipSync(b, { level: 9 }).length
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

async function json<T>(url: string): Promise<T> {
  const body = (await (await fetch(`${base}/api${url}`)).json()) as { code: number; msg: string; data: T }
  if (body.code !== 200) throw new Error(`${url}: ${body.code} ${body.msg}`)
  return body.data
}

/** The page's first-load JS (module script, preloads and inline imports), gzip. */
async function firstLoadJs(page: string) {
  const html = await (await fetch(base + page)).text()
  const files = new Set([
    ...[...html.matchAll(/<(?:link rel="modulepreload"|script[^>]*type="module")[^>]*(?:href|src)="([^"]+\.js)"/g)].map(
      (m) => m[1]!,
    ),
    ...[...html.matchAll(/import\("([^"]+\.js)"\)/g)].map((m) => m[1]!),
  ])
  let bytes = 0
  for (const f of files) bytes += gz(Buffer.from(await (await fetch(base + f)).arrayBuffer()))
  return { bytes, files: [...files] }
}

function median(values: number[]) {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

try {
  // A free lesson of the demo (a free course's first video).
  const list = await json<{ list: { id: number; is_free: boolean; type: string }[] }>('/v2/course_list?limit=50')
  const freeCourse = list.list.find((c) => c.is_free && c.type !== 'live')!
  const course = await json<{ chapters: { videos: { id: number }[] }[] }>(`/course?id=${freeCourse.id}`)
  const vid = course.chapters[0]!.videos[0]!.id
  const page = `/v/${vid}.html`

  console.log(`\nZixue player benchmark — ${os.cpus().length} cores, Node ${process.version}\n`)

  // 1. First-load JS of the video page, and the lazy hls.js chunk.
  const weight = await firstLoadJs(page)
  const hlsFile = fs.readdirSync(path.join(buildDir, 'client/assets')).find((f) => /^hls\b.*\.js$/.test(f))
  const hlsBytes = hlsFile ? gz(fs.readFileSync(path.join(buildDir, 'client/assets', hlsFile))) : 0
  const hlsInFirstLoad = weight.files.some((f) => hlsFile !== undefined && f.endsWith(hlsFile))
  console.log(`Video page ${page}: first-load JS ${kb(weight.bytes)} gzip (${weight.files.length} files)`)
  console.log(
    `  hls.js (lazy, only where Media Source plays it): ${kb(hlsBytes)} gzip, in the first load: ${hlsInFirstLoad ? 'YES' : 'no'}`,
  )

  // 2. Navigation to first frame in Chromium (fresh context each run: cold cache), anonymous and signed in.
  const database = await connectDatabase(server.databaseUrl, 4)
  const now = new Date()
  const memberRows = await database.db
    .insert(members)
    .values(
      Array.from({ length: connections }, (_, i) => ({
        phone: `166${String(i).padStart(8, '0')}`,
        nickname: `压测学员${i}`,
      })),
    )
    .returning({ id: members.id })
  const tokens: string[] = []
  for (const m of memberRows) tokens.push((await issueSession(database.db, m.id, 2, now)).token)

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
  })
  const frameTimes: Record<string, number[]> = { anonymous: [], member: [] }
  for (const who of ['anonymous', 'member'] as const) {
    for (let run = 0; run < frameRuns; run++) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
      })
      await context.addInitScript(
        ([token]) => {
          if (token) localStorage.setItem('zx_token', JSON.stringify({ token, expire: Date.now() + 86_400_000 }))
          // The first frame the compositor shows, in ms since navigation start.
          document.addEventListener(
            'loadstart',
            (e) => {
              const v = e.target as HTMLVideoElement
              v.requestVideoFrameCallback(() => {
                ;(window as unknown as { __firstFrame: number }).__firstFrame ??= performance.now()
              })
            },
            true,
          )
        },
        [who === 'member' ? tokens[run]! : ''],
      )
      const p = await context.newPage()
      await p.goto(base + page)
      const t = await p.waitForFunction(
        () => (window as unknown as { __firstFrame?: number }).__firstFrame,
        undefined,
        { timeout: 30_000 },
      )
      frameTimes[who]!.push(Math.round((await t.jsonValue()) as number))
      await context.close()
    }
  }
  await browser.close()
  for (const [who, times] of Object.entries(frameTimes)) {
    console.log(
      `Navigation → first frame (${who}, Chromium, localhost): median ${median(times)} ms, min ${Math.min(...times)} ms, max ${Math.max(...times)} ms over ${times.length} runs`,
    )
  }

  // 3. POST /api/update_play_data at 100 connections: one member per connection, each on its own row, the token
  // in the body as the player sends it.
  let next = 0
  const opts: autocannon.Options = {
    url: `${base}/api/update_play_data`,
    connections,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        setupRequest: (req, context) => {
          const c = context as { token?: string }
          c.token ??= tokens[next++ % tokens.length]!
          return {
            ...req,
            body: JSON.stringify({ vid, position: Math.floor(Math.random() * 30), duration: 36, token: c.token }),
          }
        },
      },
    ],
  }
  // Warm-up: each member's first save asks canWatch; the page view would have done that.
  await autocannon({ ...opts, duration: 2 })
  next = 0
  const r = await autocannon({ ...opts, duration: seconds })
  const saved = await database.pool.query<{ n: number }>('select count(*)::int as n from study_progress')
  await database.close()
  console.log(
    `POST /api/update_play_data, ${connections} connections, ${seconds} s: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, errors ${r.errors + r.non2xx} (${saved.rows[0]!.n} progress rows)`,
  )
} finally {
  await server.stop()
}
