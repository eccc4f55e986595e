// `npm run bench:console-scale`: the operators' console at scale. Each console read (the page and its total, as a
// screen asks for it) through the production server on a database `npm run seed:scale` filled (SCALE_DATABASE_URL,
// required), next to the same reads on the demo database, one request at a time (an operator's wait, not a load):
// BENCH_REPEAT (5) runs of each after one unmeasured, median and slowest, and the scale ÷ demo ratio of the medians.
// Figures, not assertions: docs/performance.md ("The console at scale") records them. Each run adds an admin (no
// phone, nickname 压测运营) with a live session to the scale database: a bench database, never a copy of real data.
import pg from 'pg'
import { connectDatabase } from '#server/db/database.ts'
import { issueSession } from '#server/modules/sessions/session.service.ts'
import { startServer, type RunningServer } from '#tests/support/spawn-server.ts'

const repeat = Number(process.env.BENCH_REPEAT ?? 5)
const scaleUrl = process.env.SCALE_DATABASE_URL
if (!scaleUrl) {
  console.error(
    'bench:console-scale needs SCALE_DATABASE_URL: a database `npm run seed:scale` filled (docs/performance.md).',
  )
  process.exit(2)
}

/** The console's reads, each as its screen asks: `course` is the most studied course of the database. */
const reads = (course: number): [string, string][] => [
  ['dashboard (all parts)', '/api/admin/dashboard'],
  ['members, newest first', '/api/admin/members'],
  ['members by nickname: one character (张)', `/api/admin/members?q=${encodeURIComponent('张')}`],
  ['members by nickname: two characters (兔子)', `/api/admin/members?q=${encodeURIComponent('兔子')}`],
  ['members by nickname: three characters (爱画画)', `/api/admin/members?q=${encodeURIComponent('爱画画')}`],
  ['members by last sign-in', '/api/admin/members?sort=-last_login_at'],
  ['orders, newest first', '/api/admin/orders'],
  ['orders paid, VIP, by payment time', '/api/admin/orders?kind=vip&state=paid&sort=-paid_at'],
  ['courses by title (水彩)', `/api/admin/courses?q=${encodeURIComponent('水彩')}`],
  ['lessons by title (透视表)', `/api/admin/media?q=${encodeURIComponent('透视表')}`],
  ['comments, newest first', '/api/admin/comments'],
  ['comments saying 老师', `/api/admin/comments?q=${encodeURIComponent('老师')}`],
  ['comments of the top course', `/api/admin/comments?course_id=${course}`],
  ['hidden comments', '/api/admin/comments?status=hidden'],
  ['refunds, newest first', '/api/admin/refunds'],
  ['refunds waiting for a decision', '/api/admin/refunds?state=requested'],
  ['enrolments, newest first', '/api/admin/enrolments'],
  ['overdue enrolments', '/api/admin/enrolments?state=overdue'],
]

interface Side {
  server: RunningServer
  token: string
  course: number
}

/** A server on `databaseUrl` (the demo's own database when undefined), with an admin signed in. */
async function side(databaseUrl: string | undefined): Promise<Side> {
  const server = await startServer({ name: 'zixue-bench-console', databaseUrl, logToFile: true })
  const database = await connectDatabase(server.databaseUrl, 2, undefined, { migrate: false }).catch(
    async (err: unknown) => {
      await server.stop()
      throw err
    },
  )
  try {
    // An admin of its own (no phone, so never one a seeded member holds).
    const one = async (text: string, values: unknown[] = []) =>
      (await database.pool.query<{ id: number }>(text, values)).rows[0]!.id
    const admin = await one(`insert into members (nickname) values ('压测运营') returning id`)
    await one(`insert into member_roles (member_id, role) values ($1, 'admin') returning member_id as id`, [admin])
    const course = await one(
      `select id from courses where status = 'published' order by student_count desc, id limit 1`,
    )
    return { server, token: (await issueSession(database.db, admin, 2, new Date())).token, course }
  } catch (err) {
    await server.stop()
    throw err
  } finally {
    await database.close()
  }
}

/** Milliseconds of each of `repeat` requests to `path` (after one unmeasured), checking each answers code 200. */
async function time(s: Side, path: string) {
  const once = async () => {
    const started = performance.now()
    const res = await fetch(s.server.baseUrl + path, { headers: { 'zxb-token': s.token } })
    const text = await res.text()
    const code = (() => {
      try {
        return (JSON.parse(text) as { code?: number }).code
      } catch {
        return undefined
      }
    })()
    if (code !== 200) throw new Error(`${path}: HTTP ${res.status} ${text.slice(0, 200)}`)
    return performance.now() - started
  }
  await once()
  const ms: number[] = []
  for (let i = 0; i < repeat; i++) ms.push(await once())
  ms.sort((a, b) => a - b)
  return { median: ms[Math.floor(ms.length / 2)]!, slowest: ms.at(-1)! }
}

const size = new pg.Client({ connectionString: scaleUrl })
await size.connect()
const { rows } = await size.query<Record<string, string>>(
  `select (select count(*) from courses) courses, (select count(*) from members) members,
    (select count(*) from orders) orders, (select count(*) from comments) comments,
    (select reltuples::bigint from pg_class where relname = 'study_progress') progress`,
)
await size.end()
const n = (v: string | undefined) => Number(v).toLocaleString('en-US')
console.log(
  `scale database: ${n(rows[0]!.courses)} courses, ${n(rows[0]!.members)} members, ${n(rows[0]!.orders)} orders, ` +
    `${n(rows[0]!.comments)} comments, ~${n(rows[0]!.progress)} progress rows; ${repeat} requests each, one at a time`,
)

const demo = await side(undefined)
const scale = await side(scaleUrl).catch(async (err: unknown) => {
  await demo.server.stop()
  throw err
})
try {
  console.log(
    `${'console read'.padEnd(48)} ${'demo'.padStart(8)} ${'scale'.padStart(8)} ${'slowest'.padStart(8)}  scale ÷ demo`,
  )
  const scaleReads = reads(scale.course)
  for (const [i, [name, demoPath]] of reads(demo.course).entries()) {
    const d = await time(demo, demoPath)
    const s = await time(scale, scaleReads[i]![1])
    console.log(
      `${name.padEnd(48)} ${d.median.toFixed(1).padStart(6)} ms ${s.median.toFixed(1).padStart(6)} ms ${s.slowest.toFixed(1).padStart(6)} ms  ${(s.median / d.median).toFixed(1)}×`,
    )
  }
} finally {
  await demo.server.stop()
  await scale.server.stop()
}
