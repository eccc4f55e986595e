// `npm run bench:scale [-- --courses 100000 --members 1000000 --progress 10000000]`: the hot reads at scale next to
// the same reads on the 40-course demo, in one run (issue 11, section 1). It seeds a scale database into a fresh
// embedded PostgreSQL (server/db/seed-scale), or reuses one `npm run seed:scale` filled when SCALE_DATABASE_URL is
// set, starts the production server on it and on the demo database, and loads course detail, course lists, the
// home feed, /ke1, /studyRecord, favourites and orders at BENCH_CONNECTIONS connections with random ids (course
// pages, list filters, members), so the caches are cold, alternating between the two servers for BENCH_ROUNDS
// rounds; then progress saves and payment notifications on both (bench/scale-writes.ts). BENCH_ONLY=word,word runs
// the rows whose names contain one of the words ("payments" for the payment rows). Prints the median req/s, p50 and
// p99 and the scale/demo ratio; figures, not assertions: record them in docs/performance.md. BENCH_CACHE=off starts
// both servers with PUBLIC_READ_CACHE=false, so the demo's reads go to PostgreSQL too: the ratio is then the cost
// of the data's size alone (cache miss against cache miss), where the default compares a miss at scale with the
// demo's cached page. BENCH_RATE caps the read rows' offered load (see `rate` below). The read rows' load generator
// is wrk when it is installed (bench/wrk-load.ts), autocannon otherwise or with BENCH_LOADGEN=autocannon.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import pg from 'pg'
import { connectDatabase } from '#server/db/database.ts'
import { startEmbeddedPostgres, type EmbeddedServer } from '#server/db/embedded-postgres.ts'
import { startPaymentSimulators } from '#server/integrations/payments/simulators.ts'
import { scaleOptions, seedScale } from '#server/db/seed-scale/seed-scale.ts'
import { SESSION_COOKIE } from '#server/http/session-cookie.ts'
import { issueSession } from '#server/modules/sessions/session.service.ts'
import { freePort } from '#tests/support/free-port.ts'
import { startServer } from '#tests/support/spawn-server.ts'
import { pacedLoad } from './paced-load.ts'
import { loadGenerator, wrkAvailable, wrkLoad } from './wrk-load.ts'
import { paymentNotifications, progressSaves, sampleVideos, type PaymentRun } from './scale-writes.ts'

const root = path.resolve(import.meta.dirname, '..')
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
/** How many members the signed-in reads rotate through. */
const memberCount = Number(process.env.BENCH_MEMBERS ?? 200)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
/** Only the rows whose name contains one of these comma-separated words (all rows when unset). */
const only = process.env.BENCH_ONLY?.split(',').filter(Boolean)
/** BENCH_CACHE=off: the public read caches off on both servers (PUBLIC_READ_CACHE=false). */
const cacheOff = process.env.BENCH_CACHE === 'off'
/**
 * BENCH_RATE=n: the read rows send n requests a second in all, at a steady pace over up to BENCH_CONNECTIONS
 * keep-alive connections (bench/paced-load.ts), instead of autocannon's closed loop. At 50 connections a closed loop
 * keeps 50 requests in flight, so its latency is 50 ÷ throughput whatever a request costs; a steady rate below
 * saturation shows the latency a request itself meets.
 */
const rate = Number(process.env.BENCH_RATE ?? 0)

const { values: args } = parseArgs({
  options: { courses: { type: 'string' }, members: { type: 'string' }, progress: { type: 'string' } },
})
const num = (v: string | undefined) => (v === undefined ? undefined : Number(v.replaceAll('_', '')))

interface Sample {
  /** Every published course id, in a random order. */
  courses: number[]
  categories: number[]
  /** Tokens of members with a history (drawn at scale, given one on the demo). */
  tokens: string[]
  /**
   * Tokens of other members, for the write rows: their saves and orders land on members the reads never sample, so
   * the read rows of a reused scale database measure the seeded histories run after run.
   */
  writerTokens: string[]
}

interface Line {
  rps: number
  p50: number
  p99: number
  errors: number
  /** BENCH_RATE only: the p99 of how late the bench itself sent requests (its own pauses count in the latency). */
  sendLateP99?: number
}

let courseTurn = 0
/** The next course of the sample's random order (the sample is shuffled once). */
const nextCourse = (s: Sample) => s.courses[courseTurn++ % s.courses.length]!

const sorts = ['default', 'new', 'hot', 'price_asc', 'price_desc']
const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!

/** One-term searches: one or two Chinese characters, a Latin word in any case, pinyin full and initials. */
const oneTermWords = ['水彩', '函数', '画', '调色', '入门', '剪辑', '素描', 'PS', 'ps', 'Photoshop', 'excel', 'C4D']
oneTermWords.push('Procreate', 'shuicai', 'sc', 'tiaose', 'pr', 'jianji', '板绘', '海报', '建模', '插画')
/** Searches of several words or a longer Chinese word (the GIN path). */
const multiWords = ['PS 调色', 'excel 函数', '数据透视表', '水彩 风景', '人像精修', 'Premiere 剪辑', '零基础 素描']
/** Misspelt words: nothing matches as typed, the word is corrected (docs/decisions/2026-11-26-search-typos.md). */
const typoWords = ['photosop', 'exel', 'premeire', 'illustrater', 'procreatte', 'shuicia', 'tiose', '数据透式表']
const searchPath = (words: string[]) => `/api/searchCourse?keyword=${encodeURIComponent(pick(words))}`

/** The loads: each request draws its own path (and member) so no cache sees the same key twice in a row. */
const targets: [string, (s: Sample) => { path: string; signedIn: boolean }][] = [
  // Every published course once, in random order, before any comes again: at scale each request is a cache miss.
  ['course detail (random id)', (s) => ({ path: `/api/course?id=${nextCourse(s)}`, signedIn: false })],
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
  // Issue 11 section 2: what learners type (docs/decisions/2026-11-25-search.md).
  ['search, one word (random)', () => ({ path: searchPath(oneTermWords), signedIn: false })],
  ['search, several words (random)', () => ({ path: searchPath(multiWords), signedIn: false })],
  ['search, a misspelt word (random)', () => ({ path: searchPath(typoWords), signedIn: false })],
]

/** How much a signed-in member has done, on average: their study rows, favourites and paid orders. */
interface History {
  progress: number
  favourites: number
  orders: number
}

/**
 * Published courses, categories and signed-in members of a database. At scale the members are drawn from those
 * with a history; the demo has none, so fresh members get a history of the same average size there (`like`),
 * on the demo's courses, and the signed-in reads compare like with like.
 */
async function sample(databaseUrl: string, like?: History): Promise<Sample & { history: History }> {
  const database = await connectDatabase(databaseUrl, 2)
  try {
    const q = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
      (await database.pool.query<T>(text, values)).rows
    const courses = (
      await q<{ id: number }>(`select id from courses where status = 'published' order by random()`)
    ).map((r) => r.id)
    const categories = (await q<{ id: number }>('select id from categories where visible')).map((r) => r.id)
    let members: number[] = []
    if (!like) {
      members = (
        await q<{ id: number }>(
          `select m.id from members m tablesample system (5) repeatable (1)
           where exists (select 1 from study_progress p where p.member_id = m.id)
             and exists (select 1 from orders o where o.member_id = m.id) limit ${memberCount}`,
        )
      ).map((r) => r.id)
    } else {
      members = (
        await q<{ id: number }>(
          `insert into members (phone, nickname) select '166' || lpad(i::text, 8, '0'), '压测学员' || i
           from generate_series(1, $1::int) i returning id`,
          [memberCount],
        )
      ).map((r) => r.id)
      await giveHistory(q, members, like)
    }
    const [history] = await q<History>(
      `select round(avg((select count(*) from study_progress p where p.member_id = m)))::int as progress,
         round(avg((select count(*) from favourites f where f.member_id = m and f.course_id is not null)))::int as favourites,
         round(avg((select count(*) from orders o where o.member_id = m and o.state = 'paid')))::int as orders
       from unnest($1::int[]) m`,
      [members],
    )
    const writers = like
      ? await q<{ id: number }>(
          `insert into members (phone, nickname) select '167' || lpad(i::text, 8, '0'), '压测写入' || i
           from generate_series(1, $1::int) i returning id`,
          [memberCount],
        )
      : await q<{ id: number }>(
          `select m.id from members m tablesample system (5) repeatable (2) where m.id <> all($1::int[]) limit $2`,
          [members, memberCount],
        )
    const tokenOf = async (id: number) => (await issueSession(database.db, id, 2, new Date())).token
    const tokens: string[] = []
    for (const id of members) tokens.push(await tokenOf(id))
    const writerTokens: string[] = []
    for (const { id } of writers) writerTokens.push(await tokenOf(id))
    return { courses, categories, tokens, writerTokens, history: history! }
  } finally {
    await database.close()
  }
}

/** Study rows, favourite courses and paid course orders (with their entitlements) for each of `members`. */
async function giveHistory(q: (text: string, values: unknown[]) => Promise<unknown>, members: number[], h: History) {
  // `where m > 0` ties each lateral pick to its member, so each member gets their own random courses.
  await q(
    `insert into study_progress (member_id, video_id, course_id, position, duration, created_at, updated_at)
     select m, v.id, v.course_id, v.duration_seconds / 2, v.duration_seconds, t, t
     from unnest($1::int[]) m cross join lateral (
       select id, course_id, duration_seconds, now() - random() * interval '90 days' as t from videos
       where m > 0 order by random() limit $2) v`,
    [members, h.progress],
  )
  await q(
    `insert into favourites (member_id, course_id, created_at)
     select m, c.id, now() from unnest($1::int[]) m
     cross join lateral (select id from courses where m > 0 and status = 'published' order by random() limit $2) c`,
    [members, h.favourites],
  )
  await q(
    `with o as (
       insert into orders (order_no, member_id, kind, target, title, amount_fen, original_fen, state, pay_method,
         provider, created_at, expires_at, paid_at, updated_at)
       select 'ZXBENCH' || m || 'C' || c.id, m, 'course', 'course:' || c.id, c.title, c.price_fen, c.price_fen, 'paid',
         'wechat_jsapi', 'wechat', now(), now() + interval '30 minutes', now(), now()
       from unnest($1::int[]) m cross join lateral (select id, title, price_fen from courses
         where m > 0 and status = 'published' and not is_free and price_fen > 0 order by random() limit $2) c
       returning id, member_id, order_no, title, amount_fen, split_part(target, ':', 2)::int as course_id),
     items as (insert into order_items (order_id, course_id, title, price_fen)
       select id, course_id, title, amount_fen from o)
     insert into entitlements (member_id, course_id, source, source_ref, granted_at)
     select member_id, course_id, 'purchase', order_no, now() from o`,
    [members, h.orders],
  )
}

/**
 * A signed-in browser's headers: the token the app sends, and the session cookie it was given (without the cookie,
 * every answer would set it again, which no browser makes the server do twice).
 */
const signedIn = (token: string) => ({ 'zxb-token': token, cookie: `${SESSION_COOKIE}=${token}` })

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
  if (rate > 0)
    return pacedLoad({
      base,
      connections,
      rate,
      duration,
      next: () => {
        const t = target(s)
        return { path: t.path, headers: t.signedIn ? signedIn(pick(s.tokens)) : undefined }
      },
    })
  if (wrkAvailable) {
    // The requests drawn up front, enough for this run at 20,000 a second (the list goes round if it is faster);
    // then the course order goes back to the first course not sent, as if they had been drawn one by one.
    const turn = courseTurn
    const result = await wrkLoad({
      base,
      connections,
      duration,
      requests: Array.from({ length: Math.max(20_000, duration * 20_000) }, () => {
        const t = target(s)
        return { path: t.path, headers: t.signedIn ? signedIn(pick(s.tokens)) : undefined }
      }),
    })
    // wrk formats one request to check the script before the run (never sent): one more.
    if (courseTurn !== turn) courseTurn = turn + 1 + result.requests + connections
    return result
  }
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
            headers: { ...req.headers, ...(t.signedIn && signedIn(pick(s.tokens))) },
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** The median of a few rounds (req/s, p50 and p99 each on its own). */
function medianLine(lines: Line[]): Line {
  return {
    rps: median(lines.map((l) => l.rps)),
    p50: median(lines.map((l) => l.p50)),
    p99: median(lines.map((l) => l.p99)),
    errors: lines.reduce((n, l) => n + l.errors, 0),
    ...(rate > 0 && { sendLateP99: median(lines.map((l) => l.sendLateP99 ?? 0)) }),
  }
}

const show = (l: Line) =>
  `${String(l.rps).padStart(6)} req/s  p50 ${l.p50} ms  p99 ${l.p99} ms${l.errors ? `  errors ${l.errors}` : ''}` +
  (l.sendLateP99 === undefined ? '' : ` (sent late p99 ${l.sendLateP99} ms)`)

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

const payments: Record<string, PaymentRun> = {}

/**
 * Section 5's rows: progress saves (alternating rounds, like the reads) and payment notifications (one run per
 * side: orders for BENCH_SECONDS, then each of them paid by a notification sent twice).
 */
async function writeRows(
  sides: { server: { baseUrl: string; databaseUrl: string }; sample: Sample }[],
  out: { demo: Record<string, Line>; big: Record<string, Line>; ratios: Record<string, number> },
) {
  const name = 'progress saves /update_play_data'
  if (!only || only.some((word) => name.includes(word))) {
    const videos = await Promise.all(sides.map((side) => sampleVideos(side.server.databaseUrl)))
    const lines: [Line[], Line[]] = [[], []]
    for (const [i, side] of sides.entries())
      await progressSaves(side.server.baseUrl, side.sample.writerTokens, videos[i]!, connections, 2)
    for (let r = 0; r < rounds; r++)
      for (const [i, side] of sides.entries())
        lines[i]!.push(
          await progressSaves(side.server.baseUrl, side.sample.writerTokens, videos[i]!, connections, seconds),
        )
    out.demo[name] = medianLine(lines[0])
    out.big[name] = medianLine(lines[1])
    out.ratios[name] = Math.round((out.big[name].rps / Math.max(out.demo[name].rps, 1)) * 100) / 100
    console.log(
      `  ${name.padEnd(38)} ${show(out.demo[name]).padEnd(40)} ${show(out.big[name])}   ${out.ratios[name].toFixed(2)}×`,
    )
  }
  if (only && !only.some((word) => 'payments'.includes(word))) return
  for (const [i, side] of sides.entries()) {
    const label = i === 0 ? '40-course demo' : 'scale'
    const run = await paymentNotifications(
      side.server.baseUrl,
      side.server.databaseUrl,
      sims,
      side.sample.writerTokens,
      connections,
      seconds,
    )
    payments[label] = run
    const n = run.notifications
    console.log(
      `  payments, ${label}: orders ${run.orders.rps}/s (p99 ${run.orders.p99} ms); notifications ${n.rps}/s ` +
        `(${n.sent} sent, each twice; p99 ${n.p99} ms, errors ${n.errors}); ${run.paid} of ${run.payable} paid, ` +
        `${run.refundedAsOwned} refunded at once as already owned, ${run.duplicates} duplicate grants`,
    )
  }
}

// WeChat Pay and Alipay as simulators in this process, which both servers call (the payment rows).
const sims = await startPaymentSimulators({ now: () => new Date() })
const env = {
  PAYMENT_SWEEPS: 'false',
  WECHATPAY_API_BASE: sims.wechatBase,
  ALIPAY_GATEWAY: sims.alipayGateway,
  ...(cacheOff && { PUBLIC_READ_CACHE: 'false' }),
}
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
    `\nZixue scale benchmark — ${os.cpus().length} cores (load average ${os.loadavg()[0]!.toFixed(1)}), Node ${process.version}, ${connections} connections, ${seconds} s × ${rounds} rounds each`,
  )
  if (rate === 0) console.log(`read rows loaded by ${loadGenerator} (BENCH_LOADGEN=autocannon for autocannon)`)
  console.log(
    cacheOff
      ? 'public read caches: OFF on both servers (BENCH_CACHE=off): every course page, list and feed read goes to PostgreSQL'
      : 'public read caches: on (the demo serves its 40 course pages from memory; at scale each random page is a miss)',
  )
  if (rate > 0)
    console.log(`read rows: ${rate} requests a second at a steady pace, latency from when each was due (BENCH_RATE)`)
  console.log(
    `scale database: ${Number(size.courses).toLocaleString('en-US')} courses, ${Number(size.members).toLocaleString('en-US')} members, ~${Number(size.progress).toLocaleString('en-US')} progress rows (${scale.seeded})`,
  )

  // Both servers run side by side; each load alternates between them (demo, scale, demo, scale, …) so that what
  // else the machine is doing weighs on both alike, and the median of the rounds is reported.
  // BENCH_SERVER_NODE_ARGS: node flags for both servers (e.g. "--max-semi-space-size=64", "--cpu-prof").
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)
  const demoServer = await startServer({ name: 'zixue-bench-demo', env, logToFile: true, nodeArgs })
  const scaleServer = await startServer({
    name: 'zixue-bench-scale',
    databaseUrl: scale.url,
    env,
    logToFile: true,
    nodeArgs,
  })
  const demo: Record<string, Line> = {}
  const big: Record<string, Line> = {}
  const ratios: Record<string, number> = {}
  try {
    const scaleSample = await sample(scale.url)
    const demoSample = await sample(demoServer.databaseUrl, scaleSample.history)
    const h = scaleSample.history
    console.log(
      `signed-in members: ${memberCount} on each side; per member on average: ${h.progress} study rows, ` +
        `${h.favourites} favourite courses, ${h.orders} paid orders (drawn at scale, given on the demo)`,
    )
    const sides = [
      { server: demoServer, sample: demoSample },
      { server: scaleServer, sample: scaleSample },
    ]
    for (const side of sides) await check(side.server.baseUrl, side.sample)
    console.log(`\n  ${`median of ${rounds} rounds`.padEnd(38)} ${'40-course demo'.padEnd(40)} scale`)
    for (const [name, target] of targets) {
      if (only && !only.some((word) => name.includes(word))) continue
      const rounds_: [Line[], Line[]] = [[], []]
      // Warm the processes up, not the keys: they are drawn at random.
      for (const side of sides) await load(side.server.baseUrl, side.sample, target, 2)
      for (let r = 0; r < rounds; r++)
        for (const [i, side] of sides.entries())
          rounds_[i]!.push(await load(side.server.baseUrl, side.sample, target, seconds))
      demo[name] = medianLine(rounds_[0])
      big[name] = medianLine(rounds_[1])
      ratios[name] = Math.round((big[name].rps / Math.max(demo[name].rps, 1)) * 100) / 100
      console.log(
        `  ${name.padEnd(38)} ${show(demo[name]).padEnd(40)} ${show(big[name])}   ${ratios[name].toFixed(2)}×`,
      )
    }
    await writeRows(sides, { demo, big, ratios })
  } finally {
    await settle()
    await Promise.all([demoServer.stop(), scaleServer.stop()])
  }
  console.log('\nGoals (issue 11): scale/demo throughput ≥ 0.8×, scale p99 ≤ 20 ms at 50 connections.')
  console.log('Search (issue 11 section 2): ≥ 0.5× of the demo, p99 ≤ 50 ms at 50 connections.')
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true })
  const out = path.join(
    root,
    `bench/results/scale${cacheOff ? '-cache-off' : ''}${rate > 0 ? `-rate-${rate}` : ''}.json`,
  )
  fs.writeFileSync(
    out,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        cacheOff,
        rate: rate || null,
        connections,
        seconds,
        rounds,
        size,
        demo,
        scale: big,
        ratios,
        payments,
      },
      null,
      2,
    ),
  )
  console.log(`\nWritten to ${path.relative(root, out)}`)
} finally {
  await scale.stop()
  await sims.close()
}
