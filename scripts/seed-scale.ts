// `npm run seed:scale -- --courses 100000 [--members 1000000] [--progress 10000000] [--orders N] [--favourites N]
// [--comments N] [--enrolments N] [--seed 1] [--now 2026-11-25T04:00:00Z]`: replaces the configured database's members and
// catalogue (DATABASE_URL, else the embedded one in DATA_DIR) with the demo content plus a large generated
// catalogue and audience, loaded with COPY. For benchmarks and query plans, never for a site with real members:
// it refuses to run when APP_ENV is production. Stop a running embedded server first.
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig, loadEnvFile } from '#server/config.ts'
import { openDatabase } from '#server/db/database.ts'
import { scaleOptions, seedScale } from '#server/db/seed-scale/seed-scale.ts'
import { attachDemoMedia } from '#server/modules/media/demo-media.ts'
import { defaultIntegrations } from '#server/services.ts'

const counters = ['courses', 'members', 'progress', 'orders', 'favourites', 'comments', 'enrolments', 'seed'] as const
type Counter = (typeof counters)[number]

function usage(problem: string): never {
  console.error(`${problem}\nUsage: npm run seed:scale -- --courses 100000 [--members N] [--progress N] [--seed N]`)
  process.exit(2)
}

async function main() {
  const { values } = parseArgs({
    options: {
      ...(Object.fromEntries(counters.map((c) => [c, { type: 'string' }])) as Record<Counter, { type: 'string' }>),
      now: { type: 'string' },
    },
  })
  const given: Record<string, number> = {}
  for (const c of counters) {
    const raw = values[c]
    if (raw === undefined) continue
    const n = Number(raw.replaceAll('_', ''))
    if (!Number.isSafeInteger(n) || n < 0) usage(`--${c}: a whole number, not ${raw}`)
    given[c] = n
  }
  if (!given.courses) usage('--courses is required')
  const now = values.now ? new Date(values.now) : undefined
  if (now && Number.isNaN(now.getTime())) usage(`--now: an ISO date, not ${values.now}`)
  let config
  try {
    loadEnvFile()
    config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message)
      process.exit(1)
    }
    throw err
  }
  if (config.production) usage('seed:scale replaces every member and course: it does not run with APP_ENV=production')
  const database = await openDatabase(config)
  try {
    await seedScale(database, scaleOptions({ ...given, courses: given.courses, ...(now && { now }) }), {
      // The demo courses' videos get their playable clips again; the generated videos have none.
      afterDemo: async () =>
        attachDemoMedia(database.db, (await defaultIntegrations(config)).storage, {
          info: (m: unknown) => console.log(m),
          warn: (m: unknown) => console.warn(m),
        }),
    })
  } finally {
    await database.close()
  }
}

await main()
