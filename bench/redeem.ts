// `node bench/redeem.ts` (npm run bench:redeem): how long a batch of 100,000 redeem codes takes to create (the
// POST that answers the CSV), then redeem exchanges per second at 50 connections with those 100,000 codes live,
// each request a fresh code for one of 2,000 members, against the production server on a fresh embedded database.
// Afterwards every exchange that answered 200 must be exactly one use. Figures, not assertions:
// docs/performance.md.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { sql } from 'drizzle-orm'
import { DEV_SMS_CODE_PEPPER } from '#server/config.ts'
import { connectDatabase } from '#server/db/database.ts'
import { memberRoles, members } from '#server/db/schema/members.ts'
import { hashToken } from '#server/http/auth.ts'
import { createStepUp } from '#server/http/step-up.ts'
import { issueSession } from '#server/modules/sessions/session.service.ts'
import { STEP_UP_HEADER } from '#shared/staff/roles.ts'
import { startServer } from '#tests/support/spawn-server.ts'

const root = path.resolve(import.meta.dirname, '..')
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const batchSize = Number(process.env.BENCH_REDEEM_CODES ?? 100_000)

// The server's own embedded database. Learners come from many addresses (X-Forwarded-For, one per member): the
// per-address limits are for real networks, and one address's allowance holds at most 10 attempts in flight.
const server = await startServer({
  name: 'zixue-bench-redeem',
  env: { RATE_LIMIT: 'false', SEED_DEMO: 'false', TRUST_PROXY: 'true' },
})
const database = await connectDatabase(server.databaseUrl, 5, undefined, { migrate: false })
const db = database.db

try {
  const [op] = await db.insert(members).values({ phone: '13999990000', nickname: '基准运营' }).returning()
  await db.insert(memberRoles).values({ memberId: op!.id, role: 'operator' })
  const operator = (await issueSession(db, op!.id, 2, new Date())).token
  const proof = createStepUp(DEV_SMS_CODE_PEPPER, () => new Date()).mint(hashToken(operator)).proof
  const tokens: string[] = []
  const rows = await db
    .insert(members)
    .values(
      Array.from({ length: 2000 }, (_, i) => ({ phone: `1380000${String(i).padStart(4, '0')}`, nickname: `基准${i}` })),
    )
    .returning({ id: members.id })
  for (const m of rows) tokens.push((await issueSession(db, m.id, 2, new Date())).token)

  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
    node: process.version,
    connections,
    seconds,
  }
  console.log(`\nZixue redeem benchmark — ${results.machine as string}, Node ${process.version}\n`)

  // A VIP-days batch: every exchange grants (no "you own this course already" refusals), each member any number.
  const started = performance.now()
  const res = await fetch(`${server.baseUrl}/api/admin/redeem/batches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'zxb-token': operator, [STEP_UP_HEADER]: proof },
    body: JSON.stringify({
      name: '基准批次',
      vip_days: 1,
      count: batchSize,
      per_member_limit: 10_000,
      valid_from: new Date(Date.now() - 60_000).toISOString(),
      valid_until: new Date(Date.now() + 24 * 3600_000).toISOString(),
    }),
  })
  const csv = await res.text()
  const createMs = Math.round(performance.now() - started)
  if (!res.ok) throw new Error(`batch: ${csv.slice(0, 300)}`)
  const codes = csv
    .trim()
    .split('\r\n')
    .slice(1)
    .map((l) => l.split(',')[1]!)
  results.batch = { codes: codes.length, ms: createMs, csvBytes: csv.length }
  console.log(
    `POST /api/admin/redeem/batches (${codes.length} codes, CSV ${(csv.length / 1e6).toFixed(1)} MB)   ${createMs} ms`,
  )

  let next = 0
  const exchange = await autocannon({
    url: `${server.baseUrl}/api/redeem_code/exchange`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const i = next++
          return {
            ...req,
            headers: {
              'content-type': 'application/json',
              'zxb-token': tokens[i % tokens.length]!,
              'x-forwarded-for': `10.${Math.floor((i % tokens.length) / 250)}.${(i % tokens.length) % 250}.1`,
            },
            body: JSON.stringify({ data: codes[i % codes.length] }),
          }
        },
      },
    ],
  })
  const uses = await db.execute<{ n: number; codes: number }>(
    sql`select count(*)::int as n, count(distinct code_id)::int as codes from redeem_uses`,
  )
  results.exchange = {
    rps: Math.round(exchange.requests.average),
    p50: exchange.latency.p50,
    p99: exchange.latency.p99,
    requests: exchange.requests.total,
    errors: exchange.errors + exchange.non2xx,
  }
  results.check = { uses: uses.rows[0]!.n, distinctCodes: uses.rows[0]!.codes }
  console.log(
    `POST /api/redeem_code/exchange (${codes.length} live codes)   ${Math.round(exchange.requests.average)} exchanges/s   p50 ${exchange.latency.p50} ms   p99 ${exchange.latency.p99} ms   errors ${exchange.errors + exchange.non2xx}`,
  )
  console.log(`Check: ${uses.rows[0]!.n} uses of ${uses.rows[0]!.codes} distinct codes`)
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true })
  fs.writeFileSync(path.join(root, 'bench/results/redeem.json'), JSON.stringify(results, null, 2))
  console.log('Written to bench/results/redeem.json')
} finally {
  await database.close()
  await server.stop()
}
