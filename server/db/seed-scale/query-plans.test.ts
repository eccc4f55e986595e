// Every query the learner pages and the hot APIs make must have an index it uses at scale. This file fills its
// database with the scale seed at a moderate size (5,000 courses, 20,000 members, 150,000 progress rows, analysed),
// which is large enough that the planner reads a big table in full only when no index serves the query. It then
// calls the real endpoints through a database handle that records every statement they send, and asks
// PostgreSQL for the plan of each (EXPLAIN, with the same parameters; prepared statements also as a generic
// plan): a sequential scan of a large table fails the test.
import crypto from 'node:crypto'
import { drizzle } from 'drizzle-orm/node-postgres'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'
import { schema, sessionOptions, type Database } from '#server/db/database.ts'
import { clearAllCaches } from '#server/http/public-cache.ts'
import { coursesHeldFromOrder, revokeCourses } from '#server/modules/access/access.service.ts'
import {
  findExpiredPending,
  ordersByIds,
  ordersByNos,
  ordersPaidBetween,
} from '#server/modules/orders/orders.service.ts'
import {
  refundsByNos,
  refundsOfTransactions,
  refundsSucceededBetween,
} from '#server/modules/refunds/refunds.service.ts'
import { issueSession } from '#server/modules/sessions/session.service.ts'
import { createTestDatabase } from '#tests/support/database.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import { scaleOptions, seedScale } from './seed-scale.ts'

/** Tables that grow with the catalogue or the audience: reading one of them in full is the failure. */
const largeTables = new Set([
  'courses',
  'system_course_items',
  'chapters',
  'videos',
  'members',
  'study_progress',
  'orders',
  'order_items',
  'order_events',
  'comments',
  'favourites',
  'entitlements',
  'refunds',
  'enrolments',
  'tuition_payments',
  'course_search',
  'course_terms',
  'search_words',
])

interface Statement {
  text: string
  values: unknown[]
  /** Set for named (prepared) statements, which PostgreSQL may run with a generic plan. */
  name?: string
}

let recording: Statement[] | null = null

/** A node-postgres client that notes every statement it sends while `recording` is set. */
class RecordingClient extends pg.Client {}
// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the client as `this`
const originalQuery = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown
RecordingClient.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const [first, second] = args
  if (recording) {
    // node-postgres takes (text, values) or ({ text, values?, name? }, values?): drizzle sends the second form.
    const values = Array.isArray(second) ? (second as unknown[]) : []
    if (typeof first === 'string') recording.push({ text: first, values })
    else if (first && typeof first === 'object' && 'text' in first) {
      const q = first as { text: string; values?: unknown[]; name?: string }
      recording.push({ text: q.text, values: q.values ?? values, ...(q.name && { name: q.name }) })
    }
  }
  return originalQuery.apply(this, args)
} as typeof pg.Client.prototype.query

/** The same database, reached through recording clients (what the app under test uses). */
function recordingDatabase(url: string): Database {
  const pool = new pg.Pool({ connectionString: url, max: 4, Client: RecordingClient, options: sessionOptions })
  const db = drizzle({ client: pool, schema, casing: 'snake_case' })
  return { db, pool, url, close: () => pool.end() }
}

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  Plans?: PlanNode[]
}

function seqScans(node: PlanNode, found: string[] = []) {
  if (node['Node Type'] === 'Seq Scan' && node['Relation Name'] && largeTables.has(node['Relation Name']))
    found.push(node['Relation Name'])
  for (const child of node.Plans ?? []) seqScans(child, found)
  return found
}

const explainable = /^\s*\(?\s*(select|with|insert|update|delete)\b/i

let seeded: Database
let app: FastifyInstance
let appDatabase: Database
let explainer: pg.Client
const ids = { course: 0, video: 0, comment: 0, topCategory: 0, subCategory: 0, teacher: 0, member: 0, systemCourse: 0 }
/** A past Beijing day with payments and refunds (the daily reconciliation's reads), and some of that day's numbers. */
const billDay = {
  from: new Date(0),
  to: new Date(0),
  orderNos: [] as string[],
  refundNos: [] as string[],
  txns: [] as string[],
  orderIds: [] as number[],
}
let token = ''
/** An admin's token, for the operators' console. */
let adminToken = ''

beforeAll(async () => {
  const given = process.env.QUERY_PLANS_DATABASE_URL
  if (given) {
    // A database `npm run seed:scale` filled (any size), used as it is: the full-scale check.
    const pool = new pg.Pool({ connectionString: given, max: 2 })
    seeded = { db: drizzle({ client: pool, schema, casing: 'snake_case' }), pool, url: given, close: () => pool.end() }
  } else {
    seeded = await createTestDatabase()
    await seedScale(
      seeded,
      scaleOptions({
        courses: 20_000,
        members: 20_000,
        progress: 150_000,
        favourites: 30_000,
        comments: 25_000,
        enrolments: 20_000,
      }),
      {
        log: () => {},
      },
    )
  }
  const one = async <T>(text: string) => (await seeded.pool.query<T & pg.QueryResultRow>(text)).rows[0]!
  // The most studied generated course, its first video and most answered comment; the busiest learner.
  ids.course = (
    await one<{ id: number }>(
      `select id from courses where status = 'published' and type = 'series' and id > 1040 order by student_count desc limit 1`,
    )
  ).id
  ids.video = (
    await one<{ id: number }>(`select id from videos where course_id = ${ids.course} order by sort limit 1`)
  ).id
  ids.comment = (
    await one<{ id: number }>(
      `select id from comments c where course_id = ${ids.course} and parent_id is null and status = 'shown' and not is_private
     order by (select count(*) from comments r where r.parent_id = c.id) desc, id limit 1`,
    )
  ).id
  ids.subCategory = (await one<{ id: number }>(`select category_id as id from courses where id = ${ids.course}`)).id
  ids.topCategory = (
    await one<{ id: number }>(`select parent_id as id from categories where id = ${ids.subCategory}`)
  ).id
  ids.teacher = (await one<{ id: number }>(`select teacher_id as id from courses where id = ${ids.course}`)).id
  ids.member = (
    await one<{ id: number }>(
      `select m.id from members m join study_progress p on p.member_id = m.id
     where exists (select 1 from entitlements e where e.member_id = m.id) and exists (select 1 from favourites f where f.member_id = m.id)
     group by m.id order by count(*) desc limit 1`,
    )
  ).id

  ids.systemCourse = (
    await one<{ id: number }>(
      `select course_id as id from enrolments group by course_id order by count(*) desc limit 1`,
    )
  ).id
  // The Beijing day with a WeChat Pay refund and the most WeChat Pay payments.
  const beijingDay = (column: string) => `to_char(${column} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`
  const { day } = await one<{ day: string }>(
    `select ${beijingDay('paid_at')} as day from orders where provider = 'wechat' and paid_at is not null
       and ${beijingDay('paid_at')} in
         (select ${beijingDay('completed_at')} from refunds where state = 'succeeded' and provider = 'wechat')
     group by 1 order by count(*) desc, 1 desc limit 1`,
  )
  billDay.from = new Date(`${day}T00:00:00+08:00`)
  billDay.to = new Date(billDay.from.getTime() + 86_400_000)
  const paidThatDay = await seeded.pool.query<{ id: number; order_no: string; provider_txn_id: string }>(
    'select id, order_no, provider_txn_id from orders where paid_at >= $1 and paid_at < $2 limit 50',
    [billDay.from, billDay.to],
  )
  billDay.orderNos = paidThatDay.rows.map((r) => r.order_no)
  billDay.txns = paidThatDay.rows.map((r) => r.provider_txn_id)
  billDay.orderIds = paidThatDay.rows.map((r) => r.id)
  billDay.refundNos = (
    await seeded.pool.query<{ refund_no: string }>(
      'select refund_no from refunds where completed_at >= $1 and completed_at < $2',
      [billDay.from, billDay.to],
    )
  ).rows.map((r) => r.refund_no)

  appDatabase = recordingDatabase(seeded.url)
  const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false' })
  app = await buildApp(config, { logger: false, database: appDatabase })
  await app.ready()
  token = (await issueSession(seeded.db, ids.member, 2, new Date())).token
  adminToken = (await makeMember(seeded.db, 'admin')).token
  explainer = new pg.Client({ connectionString: seeded.url })
  await explainer.connect()
}, 300_000)

afterAll(async () => {
  await explainer?.end()
  await app?.close()
  await appDatabase?.close()
  await seeded?.close()
})

/** Runs `work` while recording its statements; returns the plans' sequential scans of large tables. */
async function scansOf(work: () => Promise<unknown>) {
  // Each read as on a cache miss: the plans of what it sends to the database are the point.
  clearAllCaches()
  recording = []
  let statements: Statement[]
  try {
    await work()
  } finally {
    statements = recording
    recording = null
  }
  const queries = statements.filter((s) => explainable.test(s.text))
  expect(queries.length, 'the request reached the database').toBeGreaterThan(0)
  const problems: string[] = []
  for (const s of queries) {
    // The app's connections force generic plans (server/db/database.ts), for unnamed statements with parameters as
    // much as for named ones: each is also explained as PostgreSQL runs it there.
    const plans = [['', s.values] as const, ...(s.values.length > 0 ? [['generic_plan, ', []] as const] : [])]
    for (const [option, values] of plans) {
      const { rows } = await explainer.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `explain (${option}format json) ${s.text}`,
        [...values],
      )
      for (const table of seqScans(rows[0]!['QUERY PLAN'][0].Plan))
        problems.push(`Seq Scan on ${table}${option ? ' (generic plan)' : ''} in:\n${s.text.replace(/\s+/g, ' ')}`)
    }
  }
  return problems
}

/**
 * One API request (signed in as the busy learner unless `signedIn` is false, or as an admin with `admin`), which
 * must answer code 200.
 */
function request(r: { method: 'GET' | 'POST'; url: string; payload?: object; signedIn?: boolean; admin?: boolean }) {
  return scansOf(async () => {
    const res = await app.inject({
      method: r.method,
      url: r.url,
      ...(r.payload && { payload: r.payload }),
      headers: r.admin ? { 'zxb-token': adminToken } : r.signedIn === false ? {} : { 'zxb-token': token },
      remoteAddress: `10.9.${crypto.randomInt(0, 255)}.${crypto.randomInt(1, 255)}`,
    })
    expect(res.json<{ code: number }>().code, res.body).toBe(200)
  })
}

const get = (url: string, signedIn = true) => request({ method: 'GET', url, signedIn })

/** The plans of a list's second page (its cursor read from the first page, unrecorded). */
async function secondPage(url: string, signedIn = true) {
  const first = await app.inject({ method: 'GET', url, headers: signedIn ? { 'zxb-token': token } : {} })
  const cursor = first.json<{ data: { next_cursor: string | null } }>().data.next_cursor
  expect(cursor, `${url} has a second page`).toBeTruthy()
  return get(`${url}${url.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor!)}`, signedIn)
}

/** The plans of a search the keyword of which is corrected (so that the correction's statements are among them). */
function correctedSearch(keyword: string) {
  return scansOf(async () => {
    const res = await app.inject({ method: 'GET', url: `/api/searchCourse?keyword=${encodeURIComponent(keyword)}` })
    expect(res.json<{ data: { corrected?: string } }>().data.corrected, res.body).toBeTruthy()
  })
}

describe('hot queries at scale use indexes (EXPLAIN, no sequential scan of a large table)', () => {
  const pages: [string, () => Promise<string[]>][] = [
    ['home feed (GET /api/v3/index)', () => get('/api/v3/index', false)],
    ['home feed v2 (GET /api/v2/index)', () => get('/api/v2/index', false)],
    ['category tree (GET /api/cate)', () => get('/api/cate', false)],
    ['course detail with chapters and videos (GET /api/course)', () => get(`/api/course?id=${ids.course}`, false)],
    ['course teacher (GET /api/course/teacher)', () => get(`/api/course/teacher?course_id=${ids.course}`, false)],
    ['teacher page (GET /api/teacher)', () => get(`/api/teacher?id=${ids.teacher}`)],
    ['video list of a course (GET /api/video_page)', () => get(`/api/video_page?course_id=${ids.course}`)],
    ['video page (GET /api/video)', () => get(`/api/video?vid=${ids.video}`)],
    ['access check (GET /api/course/access)', () => get(`/api/course/access?course_id=${ids.course}`)],
    ['purchased list /ke1 (GET /api/center/my_album)', () => get('/api/center/my_album')],
    ['study record (GET /api/center/study_record)', () => get('/api/center/study_record')],
    ['study record, second page', () => secondPage('/api/center/study_record?limit=5')],
    ['favourite courses (GET /api/center/fav)', () => get('/api/center/fav?type=course')],
    ['favourite videos (GET /api/center/fav)', () => get('/api/center/fav?type=video')],
    ['favourite courses, second page', () => secondPage('/api/center/fav?type=course&limit=2')],
    ['orders list (GET /api/orders)', () => get('/api/orders')],
    ['orders list, second page', () => secondPage('/api/orders?limit=2')],
    ['course comments (GET /api/comments)', () => get(`/api/comments?course_id=${ids.course}`)],
    ['course comments, second page', () => secondPage(`/api/comments?course_id=${ids.course}&limit=2`)],
    ['video comments (GET /api/comments)', () => get(`/api/comments?vid=${ids.video}`)],
    ['pinned comments (GET /api/topComment)', () => get(`/api/topComment?course_id=${ids.course}`)],
    ['comment replies (GET /api/commentDetail)', () => get(`/api/commentDetail?id=${ids.comment}`)],
    ['my comments (GET /api/memberComments)', () => get('/api/memberComments')],
    ['VIP page (GET /api/v2/vip)', () => get('/api/v2/vip')],
    ['VIP-free course list (GET /api/vip/course_list)', () => get('/api/vip/course_list', false)],
    ['bundles (GET /api/foryou/bundles)', () => get('/api/foryou/bundles')],
    ['my profile (GET /api/userinfo)', () => get('/api/userinfo')],
    ['my points (GET /api/points)', () => get('/api/points')],
    ['paying for favourites (GET /api/fav/calc)', () => get('/api/fav/calc')],
    // Read by page loaders in process, without an API route of their own.
    ['courses for points (/course/creditPay loader)', () => scansOf(() => app.services.catalogue.pointsCourses())],
    ['teachers (/teacher loader)', () => scansOf(() => app.services.catalogue.teachers())],
    // Sweeps and refunds, called as their use cases call them: each reaches a partial index, which a generic plan
    // uses only when its predicate is a literal.
    ['the expired-order sweep', () => scansOf(() => findExpiredPending(appDatabase.db, new Date(), 100))],
    [
      "an order's courses not taken back (a per-course refund)",
      () => scansOf(() => coursesHeldFromOrder(appDatabase.db, 'ZX-NO-SUCH-ORDER')),
    ],
    [
      "revoking a refunded order's courses",
      () =>
        scansOf(() =>
          revokeCourses(appDatabase.db, {
            memberId: ids.member,
            source: 'purchase',
            sourceRef: 'ZX-NO-SUCH-ORDER',
            now: new Date(),
          }),
        ),
    ],
    [
      "revoking a redeem code's courses",
      () =>
        scansOf(() =>
          revokeCourses(appDatabase.db, {
            memberId: ids.member,
            source: 'redeem',
            sourceRef: 'no-such-use',
            now: new Date(),
          }),
        ),
    ],
    // The payment sweeps (server/modules/payments/sweeps.ts), one step at a time as the composition root binds them.
    [
      'the sweep asking providers about unanswered orders',
      () => scansOf(() => app.services.payments.reconcilePending()),
    ],
    ['the sweep sending refunds that wait', () => scansOf(() => app.services.payments.sendPendingRefunds())],
    // The daily reconciliation's reads (server/use-cases/reconcile-bills.ts) for one Beijing day of the bills.
    [
      "reconciliation: the day's payments and refunds",
      () =>
        scansOf(async () => {
          expect((await ordersPaidBetween(appDatabase.db, 'wechat', billDay.from, billDay.to)).length).toBeGreaterThan(
            0,
          )
          expect(
            (await refundsSucceededBetween(appDatabase.db, 'wechat', billDay.from, billDay.to)).length,
          ).toBeGreaterThan(0)
        }),
    ],
    [
      "reconciliation: the bill's orders, refunds and second payments",
      () =>
        scansOf(async () => {
          expect((await ordersByNos(appDatabase.db, billDay.orderNos)).size).toBe(billDay.orderNos.length)
          expect((await refundsByNos(appDatabase.db, billDay.refundNos)).size).toBe(billDay.refundNos.length)
          // The use case looks up only a bill's payments that are not their order's transaction (a second payment,
          // rare): a couple of ids, the statement's shape whichever they are.
          await refundsOfTransactions(appDatabase.db, billDay.txns.slice(0, 2))
          expect((await ordersByIds(appDatabase.db, billDay.orderIds)).size).toBe(billDay.orderIds.length)
        }),
    ],
    // The tuition sweep (server/main.ts, every 15 minutes): ended pauses resume, overdue payments pause access.
    [
      'the tuition sweep',
      () =>
        scansOf(async () => {
          const paused = await app.services.pauseOverdueTuition()
          // A fresh seed has enrolments with a payment overdue that no sweep has seen: pausing them is explained too.
          if (!process.env.QUERY_PLANS_DATABASE_URL) expect(paused).toBeGreaterThan(0)
        }),
    ],
    // The console's refund and enrolment queues.
    [
      'console: refunds (GET /api/admin/refunds)',
      () => request({ method: 'GET', url: '/api/admin/refunds', admin: true }),
    ],
    [
      'console: refunds waiting for a decision (GET /api/admin/refunds)',
      () => request({ method: 'GET', url: '/api/admin/refunds?state=requested', admin: true }),
    ],
    [
      'console: overdue enrolments (GET /api/admin/enrolments)',
      () => request({ method: 'GET', url: '/api/admin/enrolments?state=overdue', admin: true }),
    ],
    [
      "console: a system course's enrolments (GET /api/admin/enrolments)",
      () => request({ method: 'GET', url: `/api/admin/enrolments?course_id=${ids.systemCourse}`, admin: true }),
    ],
    ['recommendations on the favourites page (GET /api/center/recommend)', () => get('/api/center/recommend')],
    ['recommendations from favourites (GET /api/fav/recommend)', () => get('/api/fav/recommend')],
    [
      'search a title word (GET /api/searchCourse)',
      () => get(`/api/searchCourse?keyword=${encodeURIComponent('数据透视表')}`, false),
    ],
    ['search a tool name (GET /api/searchCourse)', () => get('/api/searchCourse?keyword=Procreate', false)],
    ...['水彩', '画', 'shuicai', 'sc', 'ps', 'Excel 函数', 'PS 调色', 'Premiere 剪辑', '零基础 素描', '入门 剪辑'].map(
      (k): [string, () => Promise<string[]>] => [
        `search ${k} (GET /api/searchCourse)`,
        () => get(`/api/searchCourse?keyword=${encodeURIComponent(k)}`, false),
      ],
    ),
    [
      'search one word, second page (GET /api/searchCourse)',
      () => secondPage(`/api/searchCourse?keyword=${encodeURIComponent('画')}`, false),
    ],
    ['search a prefix, second page (GET /api/searchCourse)', () => secondPage('/api/searchCourse?keyword=pr', false)],
    [
      'search several words, second page (GET /api/searchCourse)',
      () => secondPage(`/api/searchCourse?keyword=${encodeURIComponent('PS 调色')}`, false),
    ],
    // Typos: the first search finds nothing, the word is corrected against search_words, the search runs again.
    ...['photosop', 'exel', 'shuicia', '数据透式表', '水采花卉', 'photosop 抠图'].map(
      (k): [string, () => Promise<string[]>] => [
        `search a misspelt ${k} (GET /api/searchCourse)`,
        () => correctedSearch(k),
      ],
    ),
    // The operators' console, searching by part of a name or title: one or two Chinese characters are what
    // pg_trgm's index cannot serve (migration 0037's gram indexes do).
    ...['张', '剪辑', '爱画画', 'tom'].map((q): [string, () => Promise<string[]>] => [
      `console: members whose nickname has ${q} (GET /api/admin/members)`,
      () => request({ method: 'GET', url: `/api/admin/members?q=${encodeURIComponent(q)}`, admin: true }),
    ]),
    ...['水', '水彩', 'photoshop'].map((q): [string, () => Promise<string[]>] => [
      `console: courses whose title has ${q} (GET /api/admin/courses)`,
      () => request({ method: 'GET', url: `/api/admin/courses?q=${encodeURIComponent(q)}`, admin: true }),
    ]),
    ...['课', '透视', 'Power Query'].map((q): [string, () => Promise<string[]>] => [
      `console: lessons whose title has ${q} (GET /api/admin/media)`,
      () => request({ method: 'GET', url: `/api/admin/media?q=${encodeURIComponent(q)}`, admin: true }),
    ]),
    [
      "console: a course's comments, replies and lesson comments too (GET /api/admin/comments)",
      () => request({ method: 'GET', url: `/api/admin/comments?course_id=${ids.course}`, admin: true }),
    ],
    [
      'console: hidden comments (GET /api/admin/comments)',
      () => request({ method: 'GET', url: '/api/admin/comments?status=hidden', admin: true }),
    ],
    ...['素', '老师', '练习素材'].map((q): [string, () => Promise<string[]>] => [
      `console: comments that say ${q} (GET /api/admin/comments)`,
      () => request({ method: 'GET', url: `/api/admin/comments?q=${encodeURIComponent(q)}`, admin: true }),
    ]),
    [
      'progress save (POST /api/update_play_data)',
      () => request({ method: 'POST', url: '/api/update_play_data', payload: { vid: ids.video, position: 30 } }),
    ],
  ]
  const sorts = ['default', 'new', 'hot', 'price_asc', 'price_desc']
  for (const sort of sorts) {
    pages.push([
      `course list, all, ${sort} (GET /api/v2/course_list)`,
      () => get(`/api/v2/course_list?sort=${sort}`, false),
    ])
    pages.push([`course list, all, ${sort}, second page`, () => secondPage(`/api/v2/course_list?sort=${sort}`, false)])
    pages.push([
      `course list, top category, ${sort}`,
      () => get(`/api/v2/course_list?sort=${sort}&cate_id=${ids.topCategory}`, false),
    ])
    pages.push([
      `course list, sub-category, ${sort}`,
      () => get(`/api/v2/course_list?sort=${sort}&cate_id=${ids.subCategory}`, false),
    ])
    pages.push([
      `course list, top category, ${sort}, second page`,
      () => secondPage(`/api/v2/course_list?sort=${sort}&cate_id=${ids.topCategory}`, false),
    ])
    pages.push([
      `course list, series in a sub-category, ${sort}`,
      () => get(`/api/v2/course_list?sort=${sort}&type=series&cate_id=${ids.subCategory}`, false),
    ])
  }
  pages.push([
    'VIP-free courses (GET /api/v2/course_list?vip_free=1)',
    () => get('/api/v2/course_list?vip_free=1', false),
  ])
  pages.push([
    'VIP-free courses, second page',
    () => secondPage('/api/v2/course_list?vip_free=1&sort=hot&limit=5', false),
  ])

  it.each(pages)('%s', async (_name, run) => {
    expect(await run()).toEqual([])
  })

  it('answers several words whose courses with every word in the title fill the page without scoring any match', async () => {
    recording = []
    let statements: Statement[]
    try {
      const res = await app.inject({ method: 'GET', url: `/api/searchCourse?keyword=${encodeURIComponent('PS 调色')}` })
      expect(res.json<{ data: { list: unknown[] } }>().data.list).toHaveLength(20)
    } finally {
      statements = recording
      recording = null
    }
    // The scoring of every match (search.repository.ts, searchCourses) is the statement that tests documents.
    expect(statements.filter((s) => s.text.includes('@@'))).toEqual([])
  })
})
