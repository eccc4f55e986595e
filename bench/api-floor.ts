// `npm run bench:api-floor`: a signed-in read through the whole app next to the same reads with nothing else around
// them (issue 11 §1: p99 ≤ 20 ms at 50 connections). The read is the favourites page (GET /api/center/fav), one of
// the member reads bench/scale.ts loads; the floor (bench/api-floor-server.ts) is a bare Fastify process that runs
// the same statement through the app's repository and pool and sends the answer the app gave the same member.
// Both load the same members at random at BENCH_CONNECTIONS connections, with the token and the session cookie a
// browser sends, alternating for BENCH_ROUNDS rounds; medians. CPU per request of each server process is printed
// beside req/s (steadier on a shared machine); PostgreSQL's share is the same statements on both sides.
// SCALE_DATABASE_URL: a database `npm run seed:scale` filled (members with favourites drawn from it); otherwise the
// app starts on its own demo database and its members get three favourites each. Figures, not assertions:
// docs/performance.md records them. The load generator is wrk when it is installed (bench/wrk-load.ts).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { connectDatabase } from '#server/db/database.ts'
import { SESSION_COOKIE } from '#server/http/session-cookie.ts'
import { issueSession } from '#server/modules/sessions/session.service.ts'
import { freePort } from '#tests/support/free-port.ts'
import { startServer } from '#tests/support/spawn-server.ts'
import { cpuMs } from './process-cpu.ts'
import { loadGenerator, wrkAvailable, wrkLoad } from './wrk-load.ts'

const root = path.resolve(import.meta.dirname, '..')
const seconds = Number(process.env.BENCH_SECONDS ?? 8)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const memberCount = Number(process.env.BENCH_MEMBERS ?? 200)
const read = '/api/center/fav?type=course'

interface Line {
  rps: number
  p50: number
  p99: number
  errors: number
  /** The server process's CPU time (user + system) per answered request, in µs. */
  cpuUs: number
}

const app = await startServer({
  name: 'zixue-bench-api',
  databaseUrl: process.env.SCALE_DATABASE_URL,
  logToFile: true,
  // BENCH_SERVER_NODE_ARGS: node flags for the app (e.g. "--trace-gc"); BENCH_KEEP_LOG: a path to keep its log at.
  nodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
})
const database = await connectDatabase(app.databaseUrl, 2)
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-api-floor-'))
let floor: ReturnType<typeof spawn> | undefined
try {
  const q = async <T>(text: string, values: unknown[] = []) => (await database.pool.query(text, values)).rows as T[]
  let members = (
    await q<{ id: number }>(
      `select member_id as id from favourites where course_id is not null group by member_id order by random() limit $1`,
      [memberCount],
    )
  ).map((r) => r.id)
  if (members.length < memberCount) {
    // The demo: members get three favourite courses each.
    members = (await q<{ id: number }>(`select id from members order by id limit $1`, [memberCount])).map((r) => r.id)
    await q(
      `insert into favourites (member_id, course_id, created_at)
       select m, c, now() from unnest($1::int[]) m,
         lateral (select id as c from courses where status = 'published' order by random() limit 3) c
       on conflict do nothing`,
      [members],
    )
  }
  const answers: Record<string, { memberId: number; body: string }> = {}
  for (const memberId of members) {
    const { token } = await issueSession(database.db, memberId, 2, new Date())
    const res = await fetch(app.baseUrl + read, { headers: browser(token) })
    answers[token] = { memberId, body: await res.text() }
  }
  const tokens = Object.keys(answers)
  const answersFile = path.join(work, 'answers.json')
  fs.writeFileSync(answersFile, JSON.stringify(answers))

  const floorPort = await freePort()
  floor = spawn(process.execPath, [path.join(root, 'bench/api-floor-server.ts')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: app.databaseUrl, PORT: String(floorPort), ANSWERS: answersFile },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const floorUrl = `http://127.0.0.1:${floorPort}`
  await waitFor(floorUrl + '/api/health')
  const sample = tokens[0]!
  const [fromApp, fromFloor] = await Promise.all(
    [app.baseUrl, floorUrl].map(async (base) => (await fetch(base + read, { headers: browser(sample) })).text()),
  )
  if (fromApp !== fromFloor) throw new Error('The floor does not send what the app sends.')

  const servers = { app: { base: app.baseUrl, pid: app.child.pid! }, floor: { base: floorUrl, pid: floor.pid! } }
  const runs: Record<'app' | 'floor', Line[]> = { app: [], floor: [] }
  for (const side of ['app', 'floor'] as const) await measure(servers[side], tokens, 2)
  for (let round = 0; round < rounds; round++)
    for (const side of ['app', 'floor'] as const) runs[side].push(await measure(servers[side], tokens, seconds))
  const median = (side: 'app' | 'floor', key: keyof Line) =>
    runs[side].map((l) => l[key]).sort((a, b) => a - b)[Math.floor(runs[side].length / 2)]!

  console.log(
    `\nZixue API floor — ${os.cpus().length} cores (load average ${os.loadavg()[0]!.toFixed(1)}), Node ${process.version}, ` +
      `${connections} connections, ${seconds} s × ${rounds} rounds, ${tokens.length} members at random` +
      `${process.env.SCALE_DATABASE_URL ? ' (scale database)' : ' (demo database)'}`,
  )
  console.log(
    `GET ${read}: the app, and the same statement in a bare Fastify process; medians; load by ${loadGenerator}\n`,
  )
  for (const side of ['app', 'floor'] as const)
    console.log(
      `  ${side.padEnd(6)} ${String(median(side, 'rps')).padStart(6)} req/s  p50 ${median(side, 'p50')} ms  ` +
        `p99 ${median(side, 'p99')} ms  server CPU ${median(side, 'cpuUs')} µs/request  errors ${median(side, 'errors')}`,
    )
  const ratio = (key: 'rps' | 'cpuUs') => (median('app', key) / median('floor', key)).toFixed(2)
  console.log(`\n  app ÷ floor: ${ratio('rps')}× the requests a second, ${ratio('cpuUs')}× the server CPU per request`)
  console.log('  Goal (issue 11 §1): p99 ≤ 20 ms at 50 connections.')
} finally {
  floor?.kill('SIGTERM')
  await database.close()
  if (process.env.BENCH_KEEP_LOG && app.logFile) fs.copyFileSync(app.logFile, process.env.BENCH_KEEP_LOG)
  await app.stop()
  fs.rmSync(work, { recursive: true, force: true })
}

/** A signed-in browser's headers: the token the app sends, and the session cookie it was given. */
function browser(token: string) {
  return { 'zxb-token': token, cookie: `${SESSION_COOKIE}=${token}` }
}

async function measure(server: { base: string; pid: number }, tokens: string[], duration: number): Promise<Line> {
  const before = cpuMs(server.pid)
  if (wrkAvailable) {
    const w = await wrkLoad({
      base: server.base,
      connections,
      duration,
      requests: Array.from({ length: 20_000 }, () => ({
        path: read,
        headers: browser(tokens[Math.floor(Math.random() * tokens.length)]!),
      })),
    })
    const cpuUs = Math.round(((cpuMs(server.pid) - before) * 1000) / Math.max(1, w.requests))
    return { rps: w.rps, p50: w.p50, p99: w.p99, errors: w.errors, cpuUs }
  }
  const r = await autocannon({
    url: server.base + read,
    connections,
    duration,
    headers: { 'accept-encoding': 'identity' },
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, ...browser(tokens[Math.floor(Math.random() * tokens.length)]!) },
        }),
      },
    ],
  })
  const cpu = ((cpuMs(server.pid) - before) * 1000) / Math.max(1, r.requests.total)
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
    cpuUs: Math.round(cpu),
  }
}

async function waitFor(url: string) {
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`${url} did not answer`)
}
