// `npm run seed:scale`: a large, realistic catalogue and audience in minutes. The demo content is written first
// (categories, home feed, VIP plans: what the pages need), then the generated rows go in by COPY with the
// tables' secondary indexes dropped and rebuilt afterwards, identity sequences are moved past the new ids, and
// the tables are vacuumed and analysed. docs/decisions/2026-11-25-scale-seed-and-indexes.md explains the choices.
import { sql } from 'drizzle-orm'
import type pg from 'pg'
import type { Database } from '#server/db/database.ts'
import { reseed } from '#server/db/seed.ts'
import { rebuildSearchDocuments } from '#server/modules/catalogue/catalogue.service.ts'
import { seedCategories } from '#server/db/seed-data.ts'
import { AudiencePlan, type AudienceCounts, type VipPlanRow } from './audience.ts'
import { CataloguePlan, type ScaleCategory } from './catalogue.ts'
import { copyRows, type CopyValue } from './copy.ts'
import { TuitionPlan } from './tuition.ts'
import { topics } from './vocabulary.ts'

export interface ScaleOptions extends AudienceCounts {
  courses: number
  /** Enrolments in system courses (each of a different member). */
  enrolments: number
  /** The same seed gives the same rows. */
  seed: number
  /** Timestamps are spread over the years before this instant. */
  now: Date
}

/** Counts that scale with the catalogue: 10 members per course, 10 progress rows per member, and so on. */
export function scaleOptions(given: Partial<ScaleOptions> & { courses: number }): ScaleOptions {
  const members = given.members ?? given.courses * 10
  return {
    seed: 1,
    now: new Date('2026-11-25T04:00:00Z'),
    members,
    progress: members * 10,
    orders: Math.round(members * 0.6),
    favourites: Math.round(members * 1.5),
    comments: given.courses * 5,
    enrolments: Math.round(members * 0.02),
    ...given,
  }
}

/** The tables the scale seed fills, parents first. */
export const scaleTables = [
  'teachers',
  'courses',
  'system_course_items',
  'chapters',
  'videos',
  'members',
  'orders',
  'order_items',
  'order_events',
  'entitlements',
  'vip_memberships',
  'study_progress',
  'favourites',
  'comments',
  'refunds',
  'tuition_plans',
  'enrolments',
  'tuition_payments',
] as const

const withoutId = new Set<string>(['system_course_items', 'vip_memberships', 'study_progress'])

type Log = (line: string) => void

const fmt = (n: number) => n.toLocaleString('en-US')
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** Empties every member and catalogue table and writes the demo content again (ids as on a first start). */
async function resetToDemo(database: Database, now: Date) {
  await database.db.execute(sql`truncate members restart identity cascade`)
  await reseed(database.db, { members: true, now })
}

async function nextIds(client: pg.ClientBase) {
  const tables = ['teachers', 'courses', 'chapters', 'videos', 'members', 'orders', 'order_items', 'order_events']
  const more = ['entitlements', 'favourites', 'comments', 'refunds', 'tuition_plans', 'enrolments', 'tuition_payments']
  const { rows } = await client.query<Record<string, number>>(
    `select ${[...tables, ...more].map((t) => `coalesce((select max(id) from ${t}), 0) + 1 as ${t}`).join(', ')}`,
  )
  return rows[0]!
}

async function loadCategories(client: pg.ClientBase): Promise<ScaleCategory[]> {
  const slugs = new Map(seedCategories.flatMap((a) => a.children.map((c) => [c.name, c.slug] as const)))
  const { rows } = await client.query<{ id: number; name: string; covers: string[] }>(
    `select k.id, k.name, array_remove(array_agg(c.cover_url order by c.id), null) as covers
     from categories k left join courses c on c.category_id = k.id
     where k.parent_id is not null group by k.id order by k.id`,
  )
  const fallback = rows.flatMap((r) => r.covers)
  const categories = rows.flatMap((r) => {
    const topic = topics[slugs.get(r.name) ?? '']
    return topic ? [{ id: r.id, topic, covers: r.covers.length > 0 ? r.covers : fallback }] : []
  })
  if (categories.length === 0 || fallback.length === 0) throw new Error('seed:scale: the demo categories are missing')
  return categories
}

/** Drops the tables' secondary indexes (not those behind a primary key or constraint); returns how to rebuild them. */
async function dropSecondaryIndexes(client: pg.ClientBase, tables: readonly string[]) {
  const { rows } = await client.query<{ table: string; name: string; def: string }>(
    `select t.relname as table, i.relname as name, pg_get_indexdef(i.oid) as def
     from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
     join pg_namespace n on n.oid = t.relnamespace
     where n.nspname = current_schema() and t.relname = any($1::text[])
       and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)`,
    [tables],
  )
  for (const r of rows) await client.query(`drop index "${r.name}"`)
  return rows
}

async function rebuildIndexes(client: pg.ClientBase, indexes: { table: string; def: string }[], log: Log) {
  for (const table of new Set(indexes.map((i) => i.table))) {
    const started = performance.now()
    const defs = indexes.filter((i) => i.table === table)
    for (const i of defs) await client.query(i.def)
    log(
      `  ${table.padEnd(20)} ${String(defs.length).padStart(2)} indexes rebuilt in ${secs(performance.now() - started)}`,
    )
  }
}

/**
 * Fills the database with the scale catalogue and audience. Everything in it is replaced: members and the catalogue
 * are emptied first (with every row that points at them), then the demo content and the generated rows go in.
 */
export async function seedScale(
  database: Database,
  options: ScaleOptions,
  hooks: { log?: Log; afterDemo?: () => Promise<unknown> } = {},
) {
  const log = hooks.log ?? console.log
  const started = performance.now()
  const now = options.now.getTime()
  log(
    `seed:scale (seed ${options.seed}): ${fmt(options.courses)} courses, ${fmt(options.members)} members, ` +
      `${fmt(options.progress)} progress rows, ${fmt(options.orders)} orders, ${fmt(options.favourites)} favourites, ` +
      `${fmt(options.comments)} comments, ${fmt(options.enrolments)} enrolments`,
  )
  await resetToDemo(database, options.now)
  await hooks.afterDemo?.()
  const client = await database.pool.connect()
  const counts: Record<string, number> = {}
  try {
    const start = await nextIds(client)
    const categories = await loadCategories(client)
    const { rows: vipPlans } = await client.query<VipPlanRow>(
      'select id, name, days, price_fen as "priceFen" from vip_plans where active order by id',
    )
    const catalogue = new CataloguePlan(
      options.seed,
      options.courses,
      categories,
      {
        teacherId: start.teachers!,
        courseId: start.courses!,
        chapterId: start.chapters!,
        videoId: start.videos!,
      },
      now,
    )
    const audience = new AudiencePlan(
      options.seed,
      options,
      catalogue,
      {
        memberId: start.members!,
        orderId: start.orders!,
        orderItemId: start.order_items!,
        orderEventId: start.order_events!,
        entitlementId: start.entitlements!,
        favouriteId: start.favourites!,
        commentId: start.comments!,
        refundId: start.refunds!,
      },
      vipPlans,
      now,
    )
    // Generated rows are consistent by construction: skip the per-row foreign-key triggers where we may.
    const fkChecks = await client
      .query('set session_replication_role = replica')
      .then(() => false)
      .catch(() => true)
    if (fkChecks) log('  (not a superuser: foreign keys are checked row by row, which is slower)')
    await client.query("set maintenance_work_mem = '256MB'")
    await client.query('set synchronous_commit = off')
    const indexes = await dropSecondaryIndexes(client, scaleTables)
    // Each table with its columns, in the order the generators yield them.
    const loads: [string, string, () => Iterable<readonly CopyValue[]>][] = [
      ['teachers', 'id name title avatar_url intro sort created_at', () => catalogue.teacherRows()],
      [
        'courses',
        'id type title subtitle cover_url intro category_id teacher_id price_fen original_price_fen is_free ' +
          'points_price vip_free status level tags student_count live_starts_at live_ends_at sort created_at updated_at',
        () => catalogue.courseRows(),
      ],
      ['system_course_items', 'system_course_id course_id sort', () => catalogue.systemItems],
      ['chapters', 'id course_id title sort', () => catalogue.chapterRows()],
      [
        'videos',
        'id course_id chapter_id title duration_seconds free_seconds is_free sort created_at',
        () => catalogue.videoRows(),
      ],
      [
        'members',
        'id phone nickname avatar_url gender wx_unionid wx_openid is_purchaser created_at updated_at last_login_at',
        () => audience.memberRows(),
      ],
      [
        'orders',
        'id order_no member_id kind target title amount_fen original_fen discount_fen points_used state pay_method ' +
          'provider provider_txn_id refunded_fen created_at expires_at paid_at closed_at updated_at',
        () => audience.orderRows(),
      ],
      ['order_items', 'id order_id course_id vip_plan_id vip_days title price_fen', () => audience.orderItemRows()],
      ['order_events', 'id order_id from_state to_state reason actor created_at', () => audience.orderEventRows()],
      [
        'entitlements',
        'id member_id course_id source source_ref granted_at expires_at revoked_at',
        () => audience.entitlementRows(),
      ],
      ['vip_memberships', 'member_id expires_at updated_at', () => audience.vipRows()],
      [
        'study_progress',
        'member_id video_id course_id position duration finished_at created_at updated_at',
        () => audience.progressRows(),
      ],
      ['favourites', 'id member_id course_id video_id created_at', () => audience.favouriteRows()],
      [
        'comments',
        'id member_id course_id video_id parent_id reply_to_id reply_to_member_id thread_member_id content ' +
          'is_private status type like_count created_at',
        () => audience.commentRows(),
      ],
      [
        'refunds',
        'id refund_no order_id member_id kind provider provider_txn_id payment_fen amount_fen reason state ' +
          'moves_order provider_refund_id decided_by decided_at decision_note sent_at completed_at created_at updated_at',
        () => audience.refundRows(),
      ],
    ]
    const load = async ([table, columns, rows]: (typeof loads)[number], label = table) => {
      const report = await copyRows(client, table, columns.split(' '), rows(), (n, ms) =>
        log(`  ${label.padEnd(20)} ${fmt(n).padStart(11)} rows so far (${secs(ms)})`),
      )
      counts[table] = (counts[table] ?? 0) + report.rows
      const rate = report.rows / Math.max(report.ms / 1000, 0.001)
      log(
        `  ${label.padEnd(20)} ${fmt(report.rows).padStart(11)} rows in ${secs(report.ms)} (${fmt(Math.round(rate))} rows/s)`,
      )
    }
    try {
      for (const l of loads) await load(l)
      // Tuition, once the system courses are known, its orders and grants after the audience's.
      const after = await nextIds(client)
      const tuition = new TuitionPlan(
        options.seed,
        options.enrolments,
        { first: start.members!, count: options.members },
        catalogue,
        {
          planId: after.tuition_plans!,
          enrolmentId: after.enrolments!,
          paymentId: after.tuition_payments!,
          orderId: after.orders!,
          orderItemId: after.order_items!,
          orderEventId: after.order_events!,
          entitlementId: after.entitlements!,
        },
        now,
      )
      const columnsOf = (table: string) => loads.find(([t]) => t === table)![1]
      await load([
        'tuition_plans',
        'id course_id title kind total_fen deposit_fen balance_due_days instalments study_days contract_required ' +
          'created_at',
        () => tuition.planRows(),
      ])
      await load([
        'enrolments',
        'id member_id course_id plan_id state started_at expires_at paused_at pause_until paused_days ' +
          'exit_refund_fen exit_requested_at exited_at created_at updated_at',
        () => tuition.enrolmentRows(),
      ])
      await load([
        'tuition_payments',
        'id enrolment_id seq label amount_fen due_at opens_access state order_no paid_at',
        () => tuition.paymentRows(),
      ])
      await load(['orders', columnsOf('orders'), () => tuition.orderRows()], 'orders (tuition)')
      await load(['order_items', columnsOf('order_items'), () => tuition.orderItemRows()], 'order_items (tuition)')
      await load(['order_events', columnsOf('order_events'), () => tuition.orderEventRows()], 'order_events (tuition)')
      await load(['entitlements', columnsOf('entitlements'), () => tuition.entitlementRows()], 'entitlements (tuition)')
    } finally {
      await rebuildIndexes(client, indexes, log)
      await client.query('reset session_replication_role').catch(() => {})
    }
    // The app inserts after the generated ids: move each identity past them.
    for (const table of scaleTables.filter((t) => !withoutId.has(t)))
      await client.query(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`)
    // COPY ran with the triggers off (replica role): every course's search document is built now.
    // Their indexes are built once afterwards, which is much faster than updating them row by row.
    const searchStarted = performance.now()
    const searchIndexes = await dropSecondaryIndexes(client, ['course_search', 'course_terms'])
    const documents = await rebuildSearchDocuments(database.db)
    log(`  course_search        ${fmt(documents).padStart(11)} documents in ${secs(performance.now() - searchStarted)}`)
    await rebuildIndexes(client, searchIndexes, log)
    const vacuumStarted = performance.now()
    await client.query(`vacuum (analyze) ${scaleTables.join(', ')}, course_search, course_terms, search_words`)
    log(`  vacuum analyze        ${secs(performance.now() - vacuumStarted)}`)
  } finally {
    client.release()
  }
  log(`seed:scale done in ${secs(performance.now() - started)}`)
  return counts
}
