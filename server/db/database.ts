import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres'
import { migrate } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import type { Config } from '#server/config.ts'
import { startEmbeddedPostgres, type EmbeddedOptions } from './embedded-postgres.ts'
import * as attributionTables from './schema/attribution.ts'
import * as auditTables from './schema/audit.ts'
import * as authTables from './schema/auth.ts'
import * as bundlesTables from './schema/bundles.ts'
import * as catalogueTables from './schema/catalogue.ts'
import * as commentsTables from './schema/comments.ts'
import * as couponsTables from './schema/coupons.ts'
import * as accessTables from './schema/access.ts'
import * as favouritesTables from './schema/favourites.ts'
import * as followsTables from './schema/follows.ts'
import * as homeTables from './schema/home.ts'
import * as jobsTables from './schema/jobs.ts'
import * as learningTables from './schema/learning.ts'
import * as mediaTables from './schema/media.ts'
import * as membersTables from './schema/members.ts'
import * as ordersTables from './schema/orders.ts'
import * as overlaysTables from './schema/overlays.ts'
import * as paymentsTables from './schema/payments.ts'
import * as pointsTables from './schema/points.ts'
import * as redeemTables from './schema/redeem.ts'
import * as refundsTables from './schema/refunds.ts'
import * as sessionsTables from './schema/sessions.ts'
import * as settingsTables from './schema/settings.ts'
import * as statsTables from './schema/stats.ts'
import * as vipTables from './schema/vip.ts'
import * as wechatTables from './schema/wechat.ts'

export const schema = {
  ...attributionTables,
  ...auditTables,
  ...authTables,
  ...bundlesTables,
  ...catalogueTables,
  ...commentsTables,
  ...couponsTables,
  ...accessTables,
  ...favouritesTables,
  ...followsTables,
  ...homeTables,
  ...jobsTables,
  ...learningTables,
  ...mediaTables,
  ...membersTables,
  ...ordersTables,
  ...overlaysTables,
  ...paymentsTables,
  ...pointsTables,
  ...redeemTables,
  ...refundsTables,
  ...sessionsTables,
  ...settingsTables,
  ...statsTables,
  ...vipTables,
  ...wechatTables,
}
export type Db = NodePgDatabase<typeof schema>
/** A transaction handle: repositories accept either this or the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
export type DbOrTx = Db | Tx

/** The schema's migrations (drizzle-kit writes them; every start applies the pending ones). */
export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

// Identifiers come back as strings by default for bigint/numeric; our ids are int4 and money is int4 fen, so the
// defaults are right. Timestamps stay Date objects.

export interface Database {
  db: Db
  pool: pg.Pool
  url: string
  close(): Promise<void>
}

export interface ConnectOptions {
  /** Run pending migrations (the default); operator commands that only read leave the schema alone. */
  migrate?: boolean
  /** Another copy of the migrations (a backup's, scripts/restore.ts). */
  migrationsFolder?: string
}

/**
 * The settings every app connection starts with (libpq `options`):
 * - Generic plans. The app's named prepared statements (server/db/prepared.ts) are written so that one plan serves
 *   every value. Left to choose, PostgreSQL plans a statement afresh for its values on every call whenever the
 *   generic plan's estimate looks dearer (a LIMIT or an array it cannot see): 0.3–1.5 ms of planning per call at
 *   scale, more than most of them take to run. The setting applies to every statement with parameters, unnamed ones
 *   (drizzle's) too: they are parsed and planned on each call, but generically, so a partial index's predicate must
 *   be written as a literal to be used. server/db/seed-scale/query-plans.test.ts checks each statement's generic plan.
 * - Pinyin typos are looked up with pg_trgm's word similarity at 0.4, below its default (search-words.repository.ts):
 *   set here, since a setting per lookup took a transaction of four round trips.
 */
export const sessionOptions = '-c plan_cache_mode=force_generic_plan -c pg_trgm.word_similarity_threshold=0.4'

/** Connects to a PostgreSQL URL, runs pending migrations under an advisory lock, and returns the handle. */
export async function connectDatabase(
  url: string,
  poolSize = 10,
  onClose?: () => Promise<void>,
  options: ConnectOptions = {},
): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, idleTimeoutMillis: 30_000, options: sessionOptions })
  // An idle connection that the server drops (restart, failover) must not crash the process; the pool reconnects.
  // While closing, the embedded server may stop before the last connections have said goodbye: expected, silent.
  let closing = false
  pool.on('error', (err) => {
    if (!closing) console.warn(`database connection lost: ${err.message}`)
  })
  const db = drizzle({ client: pool, schema, casing: 'snake_case' })
  try {
    if (options.migrate !== false) await migrateDatabase(pool, db, options.migrationsFolder ?? migrationsFolder)
  } catch (err) {
    closing = true
    await pool.end().catch(() => {})
    await onClose?.()
    throw err
  }
  return {
    db,
    pool,
    url,
    async close() {
      closing = true
      await pool.end()
      await onClose?.()
    },
  }
}

async function migrateDatabase(pool: pg.Pool, db: Db, folder: string) {
  const client = await pool.connect()
  try {
    // Several processes may boot at once against one database: only one migrates.
    await client.query('select pg_advisory_lock(727274)')
    await migrate(db, { migrationsFolder: folder })
  } finally {
    await client.query('select pg_advisory_unlock(727274)').catch(() => {})
    client.release()
  }
}

/** The migrations this code carries (drizzle's journal), oldest first: their tags and creation times. */
export function knownMigrations(folder = migrationsFolder): { tag: string; when: number }[] {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[]
  }
  return journal.entries.map((e) => ({ tag: e.tag, when: e.when }))
}

/** The creation time of the newest migration applied to the database (drizzle compares these), or 0 for none. */
export async function latestAppliedMigration(client: Pick<pg.Pool, 'query'>): Promise<number> {
  const { rows } = await client.query<{ latest: string | null }>(
    'select max(created_at)::text as latest from drizzle.__drizzle_migrations',
  )
  return Number(rows[0]?.latest ?? 0)
}

/**
 * Opens the configured database: DATABASE_URL when set, otherwise the embedded server in the data folder (started
 * here, or the running app's when `attach`; see server/db/embedded-postgres.ts).
 */
export async function openDatabase(config: Config, options: EmbeddedOptions & ConnectOptions = {}): Promise<Database> {
  if (config.database.url) return connectDatabase(config.database.url, config.database.poolSize, undefined, options)
  const server = await startEmbeddedPostgres(config.database.embeddedDir, config.database.embeddedPort, options)
  try {
    const admin = new pg.Client({ connectionString: server.url('postgres') })
    await admin.connect()
    try {
      const exists = await admin.query("select 1 from pg_database where datname = 'zixue'")
      if (exists.rowCount === 0) await admin.query('create database zixue')
    } finally {
      await admin.end()
    }
  } catch (err) {
    await server.stop()
    throw err
  }
  return connectDatabase(server.url('zixue'), config.database.poolSize, () => server.stop(), options)
}
