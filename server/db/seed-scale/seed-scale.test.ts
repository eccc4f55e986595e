import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '#server/db/database.ts'
import { createTestDatabase } from '#tests/support/database.ts'
import { scaleOptions, scaleTables, seedScale } from './seed-scale.ts'

const small = {
  courses: 400,
  members: 3_000,
  progress: 20_000,
  favourites: 4_000,
  comments: 2_000,
  orders: 1_500,
  enrolments: 600,
}

let database: Database
const lines: string[] = []

async function rows<T>(text: string) {
  return (await database.pool.query(text)).rows as T[]
}
async function one<T>(text: string) {
  return (await rows<T>(text))[0]!
}

/** A digest of what the seed wrote: titles, lessons, members, orders, progress and comments. */
async function fingerprint() {
  return one<Record<string, string>>(`select
    (select md5(string_agg(title || category_id || price_fen || student_count, ',' order by id)) from courses) courses,
    (select md5(string_agg(title || coalesce(chapter_id, 0), ',' order by id)) from videos) videos,
    (select md5(string_agg(phone || nickname, ',' order by id)) from members) members,
    (select md5(string_agg(order_no || state || amount_fen, ',' order by id)) from orders) orders,
    (select md5(string_agg(member_id || ':' || video_id || ':' || position, ',' order by member_id, video_id)) from study_progress) progress,
    (select md5(string_agg(content || coalesce(parent_id, 0), ',' order by id)) from comments) comments,
    (select md5(string_agg(refund_no || state, ',' order by id)) from refunds) refunds,
    (select md5(string_agg(member_id || state || coalesce(started_at::text, ''), ',' order by id)) from enrolments) enrolments,
    (select md5(string_agg(enrolment_id || ':' || seq || state || coalesce(due_at::text, ''), ',' order by id)) from tuition_payments) payments`)
}

beforeAll(async () => {
  database = await createTestDatabase()
  await seedScale(database, scaleOptions(small), { log: (line) => lines.push(line) })
}, 60_000)

afterAll(async () => {
  await database?.close()
})

describe('npm run seed:scale', () => {
  it('writes the counts asked for, over the demo content', async () => {
    const counts = await one<Record<string, string>>(`select
      (select count(*) from courses where id > 1040) courses, (select count(*) from members) members,
      (select count(*) from study_progress) progress, (select count(*) from favourites) favourites,
      (select count(*) from comments) comments, (select count(*) from orders) orders,
      (select count(*) from home_sections) home_sections`)
    expect(Number(counts.courses)).toBe(small.courses)
    // And the demo's three purchasers and five commenters (server/db/seed-comments.ts) with their nine comments.
    expect(Number(counts.members)).toBe(small.members + 3 + 5)
    expect(Number(counts.comments)).toBe(small.comments + 9)
    // Members who would repeat a course or video are skipped, so these land just under the target.
    for (const key of ['progress', 'favourites', 'orders'] as const)
      expect(Number(counts[key])).toBeGreaterThan(small[key] * 0.95)
    expect(Number(counts.home_sections)).toBeGreaterThan(0)
  })

  it('gives every refunded order its completed refund, and refuses some requests on paid orders', async () => {
    const r = await one<Record<string, string>>(`select
      (select count(*) from orders where state = 'refunded') refunded,
      (select count(*) from refunds f join orders o on o.id = f.order_id
        where f.state = 'succeeded' and o.state = 'refunded' and f.amount_fen = o.refunded_fen
          and f.member_id = o.member_id and f.completed_at is not null) completed,
      (select count(*) from refunds f join orders o on o.id = f.order_id
        where f.state = 'rejected' and o.state = 'paid') rejected,
      (select count(*) from refunds) total`)
    expect(Number(r.refunded)).toBeGreaterThan(0)
    expect(Number(r.completed)).toBe(Number(r.refunded))
    expect(Number(r.rejected)).toBeGreaterThan(0)
    expect(Number(r.total)).toBe(Number(r.completed) + Number(r.rejected))
  })

  it('enrols members in system courses in every state, each with its plan’s schedule', async () => {
    const states = await rows<{ state: string; n: string }>(
      'select state, count(*) n from enrolments group by state order by state',
    )
    expect(states.map((s) => s.state)).toEqual([
      'enrolled',
      'exited',
      'offered',
      'overdue',
      'paused',
      'paying',
      'signed',
    ])
    const r = await one<Record<string, string>>(`select
      (select count(*) from enrolments) enrolments,
      (select count(*) from enrolments e join courses c on c.id = e.course_id join tuition_plans p on p.id = e.plan_id
        where c.type = 'system' and p.course_id = c.id) in_system_courses,
      (select count(*) from enrolments e where (select sum(amount_fen) from tuition_payments t where t.enrolment_id = e.id)
        = (select total_fen from tuition_plans p where p.id = e.plan_id)) schedules_add_up,
      (select count(*) from enrolments e where state = 'overdue' and not exists (select 1 from tuition_payments t
        where t.enrolment_id = e.id and t.state = 'due' and t.due_at < now() - interval '7 days')) overdue_in_grace,
      (select count(*) from enrolments e where state in ('offered', 'signed') and exists (select 1 from tuition_payments t
        where t.enrolment_id = e.id and t.state = 'paid')) paid_before_signing,
      (select count(*) from tuition_payments where state = 'paid') paid,
      (select count(*) from tuition_payments t join orders o on o.order_no = t.order_no
        where t.state = 'paid' and o.kind = 'tuition' and o.state = 'paid' and o.target = 'tuition:' || t.id
          and o.amount_fen = t.amount_fen) paid_by_order,
      (select count(*) from enrolments where started_at is not null) started,
      (select count(*) from enrolments e join entitlements g on g.source = 'tuition'
        and g.source_ref = 'enrolment:' || e.id and g.course_id = e.course_id and g.member_id = e.member_id) granted,
      (select count(*) from entitlements where source = 'tuition') grants`)
    expect(Number(r.enrolments)).toBe(small.enrolments)
    expect(Number(r.in_system_courses)).toBe(small.enrolments)
    expect(Number(r.schedules_add_up)).toBe(small.enrolments)
    expect(Number(r.overdue_in_grace)).toBe(0)
    expect(Number(r.paid_before_signing)).toBe(0)
    expect(Number(r.paid)).toBeGreaterThan(small.enrolments)
    expect(Number(r.paid_by_order)).toBe(Number(r.paid))
    expect(Number(r.granted)).toBe(Number(r.started))
    expect(Number(r.grants)).toBe(Number(r.started))
  })

  it('reports every table with its rows and time', () => {
    for (const table of scaleTables)
      expect(lines.some((l) => l.trim().startsWith(`${table} `) && / s /.test(l))).toBe(true)
  })

  it('gives the catalogue the demo’s shape: about 2.6 chapters and 5.7 videos per course, varied titles', async () => {
    const shape = await one<{ chapters: number; videos: number; distinct: number }>(`select
      (select count(*)::float / ${small.courses} from chapters c join courses k on k.id = c.course_id where k.id > 1040) chapters,
      (select count(*)::float / ${small.courses} from videos v where v.course_id > 1040) videos,
      (select count(distinct title)::float / count(*) from courses) distinct`)
    expect(shape.chapters).toBeGreaterThan(2.3)
    expect(shape.chapters).toBeLessThan(2.9)
    expect(shape.videos).toBeGreaterThan(5.2)
    expect(shape.videos).toBeLessThan(6.3)
    expect(shape.distinct).toBeGreaterThan(0.9)
    // A search word matches a share of the catalogue, neither none nor all of it.
    for (const word of ['水彩', '函数', '调色', 'photoshop']) {
      const { share } = await one<{ share: number }>(
        `select avg((title ilike '%${word}%')::int)::float as share from courses where id > 1040`,
      )
      expect(share, word).toBeGreaterThan(0.001)
      expect(share, word).toBeLessThan(0.15)
    }
  })

  it('keeps every foreign key (they are not checked row by row during the load)', async () => {
    const fks = await rows<{ child: string; column: string; parent: string; parent_column: string }>(`
      select c.conrelid::regclass::text as child, a.attname as column, c.confrelid::regclass::text as parent,
        pa.attname as parent_column
      from pg_constraint c
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      join pg_attribute pa on pa.attrelid = c.confrelid and pa.attnum = c.confkey[1]
      where c.contype = 'f' and c.conrelid::regclass::text = any(array[${scaleTables.map((t) => `'${t}'`).join(',')}])`)
    expect(fks.length).toBeGreaterThan(20)
    for (const fk of fks) {
      const { orphans } = await one<{ orphans: string }>(
        `select count(*) as orphans from ${fk.child} x where x.${fk.column} is not null
         and not exists (select 1 from ${fk.parent} p where p.${fk.parent_column} = x.${fk.column})`,
      )
      expect(Number(orphans), `${fk.child}.${fk.column} → ${fk.parent}`).toBe(0)
    }
  })

  it('moves the identities past the generated ids, so the app inserts after them', async () => {
    for (const table of [
      'courses',
      'chapters',
      'videos',
      'members',
      'orders',
      'comments',
      'favourites',
      'refunds',
      'enrolments',
      'tuition_payments',
    ]) {
      const { max } = await one<{ max: number }>(`select max(id) as max from ${table}`)
      const { next } = await one<{ next: string }>(`select nextval(pg_get_serial_sequence('${table}', 'id')) as next`)
      expect(Number(next), table).toBe(max + 1)
    }
  })

  it('rebuilds the indexes it dropped for the load and leaves the tables analysed', async () => {
    const { missing } = await one<{ missing: string }>(`select count(*) as missing from pg_indexes
      where indexname in ('courses_title_grams_idx', 'videos_chapter_idx', 'study_progress_member_updated_idx', 'favourites_member_idx')`)
    expect(Number(missing)).toBe(4)
    const { unanalysed } = await one<{ unanalysed: string }>(
      `select count(*) as unanalysed from pg_stat_user_tables
       where relname = any(array[${scaleTables.map((t) => `'${t}'`).join(',')}]) and last_analyze is null and last_autoanalyze is null`,
    )
    expect(Number(unanalysed)).toBe(0)
  })

  it('writes the same rows for the same seed number, and others for another', async () => {
    const first = await fingerprint()
    await seedScale(database, scaleOptions(small), { log: () => {} })
    expect(await fingerprint()).toEqual(first)
    await seedScale(database, scaleOptions({ ...small, seed: 2 }), { log: () => {} })
    const other = await fingerprint()
    for (const key of Object.keys(first)) expect(other[key], key).not.toBe(first[key])
  }, 60_000)
})
