// `npm run bench:scale [-- --courses 100000 --members 1000000 --progress 10000000]`: the hot reads at scale next to
// the same reads on the 40-course demo, in one run (issue 11, section 1). It seeds a scale database into a fresh
// embedded PostgreSQL (server/db/seed-scale), or reuses one `npm run seed:scale` filled when SCALE_DATABASE_URL is
// set, starts the production server on each database in turn and loads course detail, course lists, the home
// feed, /ke1, /studyRecord, favourites and orders at BENCH_CONNECTIONS connections with random ids (course pages,
// list filters, members), so the caches are cold. Prints req/s, p50 and p99 and the scale/demo ratio; figures,
// not assertions: record them in docs/performance.md.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import pg from 'pg'
import { connectDatabase, startEmbeddedPostgres, type EmbeddedServer } from '#server/db/database.ts'
import { scaleOptions, seedScale } from '#server/db/seed-scale/seed-scale.ts'
import { issueSession } from '#server/modules/sessions/session.service.ts'
import { freePort } from '#tests/support/free-port.ts'
import { startServer, type RunningServer } from '#tests/support/spawn-server.ts'

const root = path.resolve(import.meta.dirname, '..')
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
/** How many members the signed-in reads rotate through. */
const memberCount = Number(process.env.BENCH_MEMBERS ?? 200)

const { values: args } = parseArgs({
  options: { courses: { type: 'string' }, members: { type: 'string' }, progress: { type: 'string' } },
})
const num = (v: string | undefined) => (v === undefined ? undefined : Number(v.replaceAll('_', '')))

interface Sample {
  /** Published course ids to open. */
  courses: number[]
  categories: number[]
  /** Tokens of members with a history (at scale) or of fresh members (the demo). */
  tokens: string[]
}

interface Line {
  rps: number
  p50: number
  p99: number
  errors: number
}

const sorts = ['default', 'new', 'hot', 'price_asc', 'price_desc']
const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!

/** The loads: each request draws its own path (and member) so no cache sees the same key twice in a row. */
const targets: [string, (s: Sample) => { path: string; signedIn: boolean }][] = [
  ['course detail (random id)', (s) => ({ path: `/api/course?id=${pick(s.courses)}`, signedIn: false })],
  [
    'course list (random category and sort)',
    (s) => {
      const cate = Math.random() < 0.8 ? `&cate_id=${pick(s.categories)}` : ''
      return { path: `/api/v2/course_list?sort=${pick(sorts)}${cate}`, signedIn: false }
    },
  ],
  ['home feed /api/v3/index', () => ({ path: '/api/v3/index', signedIn: false })],
  ['/ke1 purchased (random member)', () => ({ path: '/api/center/my_album', signedIn: true })],
  ['/studyRecord (random member)', () => ({ path: '/api/center/study_record', signedIn: true })],
  ['favourites (random member)', () => ({ path: '/api/center/fav?type=course', signedIn: true })],
  ['orders (random member)', () => ({ path: '/api/orders', signedIn: true })],
]

/** Published courses, categories and signed-in members of a database (members with a history when it has some). */
async function sample(databaseUrl: string): Promise<Sample> {
  const database = await connectDatabase(databaseUrl, 2)
  try {
    const q = async <T extends pg.QueryResultRow>(text: string) => (await database.pool.query<T>(text)).rows
    const courses = (
      await q<{ id: number }>(`select id from courses where status = 'published' order by random() limit 20000`)
    ).map((r) => r.id)
    const categories = (await q<{ id: number }>('select id from categories where visible')).map((r) => r.id)
    let members = (
      await q<{ id: number }>(
        `select m.id from members m tablesample system (5) repeatable (1)
         where exists (select 1 from study_progress p where p.member_id = m.id)
           and exists (select 1 from orders o where o.member_id = m.id) limit ${memberCount}`,
      )
    ).map((r) => r.id)
    if (members.length === 0) {
      // The demo has no learners yet: fresh members (no history) stand in.
      const { rows } = await database.pool.query<{ id: number }>(
        `insert into members (phone, nickname) select '166' || lpad(i::text, 8, '0'), '压测学员' || i
         from generate_series(1, $1::int) i returning id`,
        [memberCount],
      )
      members = rows.map((r) => r.id)
    }
    const tokens: string[] = []
    for (const id of members) tokens.push((await issueSession(database.db, id, 2, new Date())).token)
    return { courses, categories, tokens }
  } finally {
    await database.close()
  }
}

async function check(base: string, s: Sample) {
  for (const [name, target] of targets) {
    const t = target(s)
    const res = await fetch(base + t.path, { headers: t.signedIn ? { 'zxb-token': s.tokens[0]! } : {} })
    const body = (await res.json()) as { code: number; msg: string }
    if (body.code !== 200) throw new Error(`${name}: ${t.path} answered ${body.code} ${body.msg}`)
  }
}

async function load(
  base: string,
  s: Sample,
  target: (s: Sample) => { path: string; signedIn: boolean },
  duration: number,
) {
  const result = await autocannon({
    url: base,
    connections,
    duration,
    headers: { 'accept-encoding': 'identity' },
    requests: [
      {
        setupRequest: (req) => {
          const t = target(s)
          return {
            ...req,
            path: t.path,
            headers: { ...req.headers, ...(t.signedIn && { 'zxb-token': pick(s.tokens) }) },
          }
        },
      },
    ],
  })
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  }
}

async function measure(label: string, server: RunningServer, s: Sample) {
  await check(server.baseUrl, s)
  const lines: Record<string, Line> = {}
  console.log(`\n${label}`)
  for (const [name, target] of targets) {
    await load(server.baseUrl, s, target, 2) // warm up the process, not the keys: they are drawn at random
    const line = await load(server.baseUrl, s, target, seconds)
    lines[name] = line
    console.log(
      `  ${name.padEnd(40)} ${String(line.rps).padStart(6)} req/s   p50 ${line.p50} ms   p99 ${line.p99} ms   errors ${line.errors}`,
    )
  }
  return lines
}

/** The scale database: SCALE_DATABASE_URL as it is, or a fresh embedded one seeded now. */
async function scaleDatabase(): Promise<{ url: string; stop: () => Promise<void>; seeded: string }> {
  const given = process.env.SCALE_DATABASE_URL
  if (given) return { url: given, stop: async () => {}, seeded: 'reused (SCALE_DATABASE_URL)' }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-bench-scale-'))
  fs.chmodSync(dir, 0o755)
  let server: EmbeddedServer | undefined
  try {
    server = await startEmbeddedPostgres(path.join(dir, 'pg'), await freePort())
    const admin = new pg.Client({ connectionString: server.url('postgres') })
    await admin.connect()
    await admin.query('create database zixue')
    await admin.end()
    const url = server.url('zixue')
    const database = await connectDatabase(url, 2)
    const options = scaleOptions({
      courses: num(args.courses) ?? 100_000,
      ...(args.members && { members: num(args.members) }),
      ...(args.progress && { progress: num(args.progress) }),
    })
    const started = performance.now()
    try {
      await seedScale(database, options)
    } finally {
      await database.close()
    }
    const took = ((performance.now() - started) / 1000).toFixed(0)
    const stop = async () => {
      await server?.stop()
      fs.rmSync(dir, { recursive: true, force: true })
    }
    return { url, stop, seeded: `seeded in ${took} s` }
  } catch (err) {
    await server?.stop()
    fs.rmSync(dir, { recursive: true, force: true })
    throw err
  }
}

const env = { PAYMENT_SWEEPS: 'false' }
/** Lets the requests autocannon left in flight finish before the server is stopped. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1000))
const scale = await scaleDatabase()
try {
  const size = await (async () => {
    const c = new pg.Client({ connectionString: scale.url })
    await c.connect()
    try {
      const { rows } = await c.query<Record<string, string>>(
        `select (select count(*) from courses) courses, (select count(*) from members) members,
           (select reltuples::bigint from pg_class where relname = 'study_progress') progress`,
      )
      return rows[0]!
    } finally {
      await c.end()
    }
  })()
  console.log(
    `\nZixue scale benchmark — ${os.cpus().length} cores, Node ${process.version}, ${connections} connections, ${seconds} s each`,
  )
  console.log(
    `scale database: ${Number(size.courses).toLocaleString('en-US')} courses, ${Number(size.members).toLocaleString('en-US')} members, ~${Number(size.progress).toLocaleString('en-US')} progress rows (${scale.seeded})`,
  )

  // One server at a time, so the two measurements do not share the machine.
  const demoServer = await startServer({ name: 'zixue-bench-demo', env })
  let demo: Record<string, Line>
  try {
    demo = await measure('40-course demo database', demoServer, await sample(demoServer.databaseUrl))
  } finally {
    await settle()
    await demoServer.stop()
  }
  const scaleServer = await startServer({ name: 'zixue-bench-scale', databaseUrl: scale.url, env })
  let big: Record<string, Line>
  try {
    big = await measure('scale database', scaleServer, await sample(scale.url))
  } finally {
    await settle()
    await scaleServer.stop()
  }

  console.log('\nscale / demo throughput (goal ≥ 0.8) and scale p99 (goal ≤ 20 ms):')
  const ratios: Record<string, number> = {}
  for (const [name] of targets) {
    ratios[name] = Math.round((big[name]!.rps / Math.max(demo[name]!.rps, 1)) * 100) / 100
    console.log(`  ${name.padEnd(40)} ${ratios[name].toFixed(2)}×   p99 ${big[name]!.p99} ms`)
  }
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true })
  const out = path.join(root, 'bench/results/scale.json')
  fs.writeFileSync(
    out,
    JSON.stringify({ date: new Date().toISOString(), connections, seconds, size, demo, scale: big, ratios }, null, 2),
  )
  console.log(`\nWritten to ${path.relative(root, out)}`)
} finally {
  await scale.stop()
}
