// The database part of `npm run backup` / `npm run restore` (scripts/backup.ts, scripts/restore.ts): every table's
// rows in PostgreSQL's own COPY text format, read in one consistent snapshot through the server itself (no
// client tools, so no version to match), plus the sequences. The schema is not dumped: it is the migrations the
// backup carries, applied to the fresh database before the rows go in. docs/decisions/2026-11-25-backups.md.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type pg from 'pg'
import { copyIn, copyOut } from './copy.ts'
import { knownMigrations, latestAppliedMigration } from './database.ts'

interface DumpedTable {
  name: string
  /** Stored columns in order (generated ones are computed again on load). */
  columns: string[]
  rows: number
  file: string
  sha256: string
}

export interface DatabaseDump {
  server_version: string
  migrations: { count: number; latest: string; when: number }
  tables: DumpedTable[]
  sequences: { name: string; last_value: string }[]
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`

/** Hashes what flows through it. */
function hasher() {
  const hash = crypto.createHash('sha256')
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk)
      done(null, chunk)
    },
  })
  return { stream, digest: () => hash.digest('hex') }
}

/**
 * Writes every table of the `public` schema to `<dir>/tables/<table>.copy` from one REPEATABLE READ snapshot
 * (a consistent moment, while the app keeps running; tables are share-locked so no migration changes them
 * meanwhile). Refuses a database whose migrations differ from the ones this code carries: the backup restores
 * with these.
 */
export async function dumpDatabase(client: pg.ClientBase, dir: string): Promise<DatabaseDump> {
  const known = knownMigrations()
  const last = known.at(-1)!
  const applied = await latestAppliedMigration(client)
  if (applied > last.when)
    throw new Error(
      'The database has migrations this copy of Zixue does not know: run the backup with the version that runs the server.',
    )
  if (applied < last.when)
    throw new Error(
      `The database lacks migrations up to ${last.tag}: start the server of this version once (it migrates), then back up.`,
    )
  fs.mkdirSync(path.join(dir, 'tables'), { recursive: true })
  await client.query('begin transaction isolation level repeatable read, read only')
  try {
    const { rows: tables } = await client.query<{ name: string; columns: string[] }>(`
      select c.relname as name, array_agg(a.attname::text order by a.attnum) as columns
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      where n.nspname = 'public' and c.relkind = 'r' and c.relpersistence <> 't'
      group by c.relname order by c.relname`)
    if (tables.length > 0)
      await client.query(`lock table ${tables.map((t) => `public.${ident(t.name)}`).join(', ')} in access share mode`)
    const dumped: DumpedTable[] = []
    for (const table of tables) {
      const file = `tables/${table.name}.copy`
      const out = fs.createWriteStream(path.join(dir, file))
      const hash = hasher()
      const writing = pipeline(hash.stream, out)
      const rows = await copyOut(
        client,
        `copy public.${ident(table.name)} (${table.columns.map(ident).join(', ')}) to stdout`,
        hash.stream,
      )
      hash.stream.end()
      await writing
      dumped.push({ name: table.name, columns: table.columns, rows, file, sha256: hash.digest() })
    }
    // Sequences are not transactional: their values now are at least those the snapshot's rows used.
    const { rows: sequences } = await client.query<{ name: string; last_value: string }>(
      "select sequencename as name, last_value::text from pg_sequences where schemaname = 'public' and last_value is not null order by 1",
    )
    const { rows: version } = await client.query<{ server_version: string }>('show server_version')
    await client.query('commit')
    return {
      server_version: version[0]!.server_version,
      migrations: { count: known.length, latest: last.tag, when: last.when },
      tables: dumped,
      sequences,
    }
  } catch (err) {
    await client.query('rollback').catch(() => {})
    throw err
  }
}

/** Tables in an order that loads parents before the rows that point at them; null when their keys form a cycle. */
async function loadOrder(client: pg.ClientBase, names: string[]): Promise<string[] | null> {
  const { rows } = await client.query<{ child: string; parent: string }>(`
    select distinct c.relname as child, p.relname as parent
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
    join pg_namespace n on n.oid = c.relnamespace
    where k.contype = 'f' and n.nspname = 'public' and c.oid <> p.oid`)
  const order: string[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const visit = (name: string): boolean => {
    if (state.get(name) === 'done') return true
    if (state.get(name) === 'visiting') return false
    state.set(name, 'visiting')
    for (const r of rows) if (r.child === name && !visit(r.parent)) return false
    state.set(name, 'done')
    if (names.includes(name)) order.push(name)
    return true
  }
  for (const name of names) if (!visit(name)) return null
  return order
}

/**
 * Loads a dump into a database just migrated with the dump's own migrations, in one transaction: every table is
 * emptied (a migration may have inserted rows), filled parents first with our own triggers off, each file checked
 * against its checksum and row count, and the sequences set. Throws, changing nothing, on any mismatch.
 */
export async function loadDump(client: pg.ClientBase, dir: string, dump: DatabaseDump) {
  const applied = await latestAppliedMigration(client)
  if (applied !== dump.migrations.when)
    throw new Error(`The restored schema is not the backup's (migration ${dump.migrations.latest}).`)
  const byName = new Map(dump.tables.map((t) => [t.name, t]))
  const { rows: present } = await client.query<{ name: string }>(
    "select tablename as name from pg_tables where schemaname = 'public'",
  )
  const missing = dump.tables.filter((t) => !present.some((p) => p.name === t.name))
  if (missing.length > 0)
    throw new Error(`The backup has tables its migrations do not create: ${missing.map((t) => t.name).join(', ')}`)
  await client.query('begin')
  try {
    const all = present.map((p) => p.name)
    if (all.length > 0)
      await client.query(`truncate table ${all.map((n) => `public.${ident(n)}`).join(', ')} restart identity cascade`)
    // Triggers of our own (the search documents': server/db/migrations/0021) would write rows the dump also
    // holds: they stay off while it loads, inside this transaction (table owners may; no superuser needed).
    const userTriggers = async (state: 'disable' | 'enable') => {
      for (const n of all) await client.query(`alter table public.${ident(n)} ${state} trigger user`)
    }
    await userTriggers('disable')
    let order = await loadOrder(client, [...byName.keys()])
    if (!order) {
      // Keys in a cycle: load without the foreign-key triggers (superuser only), as pg_restore --disable-triggers.
      await client.query('set local session_replication_role = replica')
      order = [...byName.keys()]
    }
    for (const name of order) {
      const table = byName.get(name)!
      const hash = hasher()
      const reading = pipeline(fs.createReadStream(path.join(dir, table.file)), hash.stream)
      const copying = copyIn(
        client,
        `copy public.${ident(name)} (${table.columns.map(ident).join(', ')}) from stdin`,
        hash.stream,
      )
      const [rows] = await Promise.all([copying, reading]).catch((err: unknown) => {
        hash.stream.destroy()
        throw err
      })
      if (hash.digest() !== table.sha256) throw new Error(`The backup's ${table.file} is damaged (checksum differs).`)
      if (rows !== table.rows) throw new Error(`${name}: ${rows} rows loaded, the backup holds ${table.rows}.`)
    }
    for (const s of dump.sequences)
      await client.query(`select setval($1::regclass, $2::bigint, true)`, [`public.${ident(s.name)}`, s.last_value])
    await userTriggers('enable')
    await client.query('commit')
  } catch (err) {
    await client.query('rollback').catch(() => {})
    throw err
  }
}
