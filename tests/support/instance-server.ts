// One app instance as server/main.ts runs it, without the page renderer (so it needs no production build) or the
// demo seed: configuration, database (DATABASE_URL, migrations), HTTP, the job worker when JOB_WORKER is on, and a
// clean stop on SIGTERM. For the multi-instance test (server/multi-instance.test.ts). Tests only.
import { buildApp } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'
import { openDatabase } from '#server/db/database.ts'
import { startJobWorker } from '#server/jobs/start.ts'

const config = loadConfig(process.env)
if (!config.database.url) throw new Error('an instance of the multi-instance test needs DATABASE_URL')
const database = await openDatabase(config)
const app = await buildApp(config, { database, logger: { level: config.logLevel } })
const worker = config.media.worker ? startJobWorker(app.services, app.log, { pollMs: 100 }) : null
process.once('SIGTERM', () => {
  void (async () => {
    await worker?.stop()
    await app.close()
    await database.close()
    process.exit(0)
  })()
})
await app.listen({ host: config.host, port: config.port })
