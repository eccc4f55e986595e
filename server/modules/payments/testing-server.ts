// A server process for the payment crash test (payments.crash.test.ts): what server/main.ts runs, without the
// page renderer (so it needs no production build), the demo seed or the job worker. Tests only.
import { buildApp } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'
import { connectDatabase } from '#server/db/database.ts'
import { startPaymentSweeps } from './sweeps.ts'

const config = loadConfig(process.env)
if (!config.database.url) throw new Error('the payment test server needs DATABASE_URL')
const database = await connectDatabase(config.database.url, config.database.poolSize)
const app = await buildApp(config, { database, logger: { level: config.logLevel } })
if (config.payments.sweeps) startPaymentSweeps(app.services, app.log, config.payments.sweepIntervalMs)
await app.listen({ host: config.host, port: config.port })
// Exit cleanly on SIGTERM so `--cpu-prof` (bench/payments.ts BENCH_SERVER_NODE_ARGS) can write its profile.
process.on('SIGTERM', () => void app.close().finally(() => process.exit(0)))
