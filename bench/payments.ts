// `node bench/payments.ts`: orders created per second and payment notifications processed per second at 50
// connections, against a server process on a fresh embedded database, with the WeChat Pay simulator in this
// process. Every notification is sent twice; afterwards every order must be paid exactly once (the ledger check).
// Figures, not assertions: record them in docs/performance.md.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { connectDatabase } from '#server/db/database.ts'
import { startEmbeddedPostgres } from '#server/db/embedded-postgres.ts'
import { categories, courses } from '#server/db/schema/catalogue.ts'
import { members } from '#server/db/schema/members.ts'
import { startPaymentSimulators } from '#server/integrations/payments/simulators.ts'
import { ledgerProblems } from '#server/modules/payments/testing.ts'
import { issueSession } from '#server/modules/sessions/session.service.ts'
import { freePort } from '#tests/support/free-port.ts'
import { startServer, type RunningServer } from '#tests/support/spawn-server.ts'

const root = path.resolve(import.meta.dirname, '..')
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-bench-pay-'))
fs.chmodSync(dir, 0o755)
const pgServer = await startEmbeddedPostgres(path.join(dir, 'pg'), await freePort())
const admin = new pg.Client({ connectionString: pgServer.url('postgres') })
await admin.connect()
await admin.query('create database zixue')
await admin.end()
const database = await connectDatabase(pgServer.url('zixue'), 5)
const db = database.db
const sims = await startPaymentSimulators({ now: () => new Date() })
let server: RunningServer | undefined

try {
  server = await startServer({
    entry: 'server/modules/payments/testing-server.ts',
    name: 'zixue-bench-pay-server',
    // BENCH_SERVER_NODE_ARGS: extra node flags for the server process (e.g. "--cpu-prof --import ./counter.mjs").
    nodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
    databaseUrl: database.url,
    env: {
      DATABASE_POOL_SIZE: process.env.BENCH_POOL_SIZE ?? '20',
      PAYMENT_SWEEPS: 'false',
      WECHATPAY_API_BASE: sims.wechatBase,
      ALIPAY_GATEWAY: sims.alipayGateway,
    },
  })
  const base = server.baseUrl

  const [cat] = await db.insert(categories).values({ name: '基准' }).returning()
  const courseIds = (
    await db
      .insert(courses)
      .values(
        Array.from({ length: 200 }, (_, i) => ({
          type: 'series' as const,
          title: `基准课程 ${i}`,
          coverUrl: '/c.webp',
          categoryId: cat!.id,
          priceFen: 100 + i,
        })),
      )
      .returning({ id: courses.id })
  ).map((c) => c.id)
  const tokens: string[] = []
  for (let i = 0; i < 500; i++) {
    const [m] = await db
      .insert(members)
      .values({ phone: `1390000${String(i).padStart(4, '0')}`, nickname: `基准${i}` })
      .returning({ id: members.id })
    tokens.push((await issueSession(db, m!.id, 2, new Date())).token)
  }
  // With a query counter preloaded in the server (BENCH_SERVER_NODE_ARGS="--import …", writing its running count
  // to PG_COUNT_FILE), the SQL statements each phase sent per request.
  const statements = async () => {
    if (!process.env.PG_COUNT_FILE) return null
    await new Promise((r) => setTimeout(r, 700))
    return (JSON.parse(fs.readFileSync(process.env.PG_COUNT_FILE, 'utf8')) as { n: number }).n
  }
  let before = await statements()
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!

  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} cores`,
    node: process.version,
    connections,
    seconds,
  }
  console.log(
    `\nZixue payments benchmark — ${os.cpus().length} cores, Node ${process.version}, ${connections} connections\n`,
  )

  const orders = await autocannon({
    url: `${base}/api/pay/course`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => ({
          ...req,
          headers: { 'content-type': 'application/json', 'zxb-token': pick(tokens) },
          body: JSON.stringify({ course_id: pick(courseIds), pay_method: 'wechat_native' }),
        }),
      },
    ],
  })
  results.orders = {
    rps: Math.round(orders.requests.average),
    p50: orders.latency.p50,
    p99: orders.latency.p99,
    errors: orders.errors + orders.non2xx,
  }
  console.log(
    `POST /api/pay/course (prepay at the simulator)   ${Math.round(orders.requests.average)} orders/s   p99 ${orders.latency.p99} ms   errors ${orders.errors + orders.non2xx}`,
  )
  let after = await statements()
  if (before !== null && after !== null)
    console.log(`  ${((after - before) / orders.requests.total).toFixed(1)} SQL statements per order request`)

  const pending = await db.execute<{ order_no: string }>(
    sql`select order_no from orders where state = 'pending' order by id limit 6000`,
  )
  // An order whose checkout was cut off when the timed phase ended may not have reached the simulator yet.
  const payable = pending.rows.filter((r) => sims.wechat.trades.has(r.order_no))
  const notifications = payable.map((r) => {
    const trade = sims.wechat.trades.get(r.order_no)!
    trade.state = 'SUCCESS'
    trade.transactionId = `4200${r.order_no.slice(2)}${Math.floor(Math.random() * 1e6)}`
    trade.successTime = new Date()
    return sims.wechat.paymentNotification(trade)
  })
  let next = 0
  const started = Date.now()
  const notify = await autocannon({
    url: `${base}/api/pay/notify/wechat`,
    connections,
    amount: notifications.length * 2,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          // Each notification twice, the replay half a round later: a replay meets its first delivery in flight.
          const i = next++
          const n =
            notifications[(Math.floor(i / 2) + (i % 2) * Math.floor(notifications.length / 2)) % notifications.length]!
          return { ...req, headers: n.headers, body: n.body }
        },
      },
    ],
  })
  const elapsed = (Date.now() - started) / 1000
  const rate = Math.round((notifications.length * 2) / elapsed)
  results.notifications = {
    sent: notifications.length * 2,
    rps: rate,
    p50: notify.latency.p50,
    p99: notify.latency.p99,
    errors: notify.errors + notify.non2xx,
  }
  console.log(
    `POST /api/pay/notify/wechat (each sent twice)    ${rate} notifications/s   p99 ${notify.latency.p99} ms   errors ${notify.errors + notify.non2xx}`,
  )
  before = after
  after = await statements()
  if (before !== null && after !== null)
    console.log(
      `  ${((after - before) / notifications.length).toFixed(1)} SQL statements per order paid (its notification and the replay)`,
    )

  const paid = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from orders where order_no = any(${sql.param(payable.map((r) => r.order_no))}::text[]) and state = 'paid'`,
  )
  const problems = await ledgerProblems(db)
  results.check = { orders: notifications.length, paid: paid.rows[0]!.n, ledgerProblems: problems.length }
  console.log(
    `\nCheck: ${paid.rows[0]!.n} of ${notifications.length} orders paid, ${problems.length} ledger problems${problems.length ? `: ${problems.slice(0, 5).join('; ')}` : ''}`,
  )

  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true })
  fs.writeFileSync(path.join(root, 'bench/results/payments.json'), JSON.stringify(results, null, 2))
  console.log('Written to bench/results/payments.json')
} finally {
  await server?.stop()
  await sims.close()
  await database.close()
  await pgServer.stop()
  fs.rmSync(dir, { recursive: true, force: true })
}
