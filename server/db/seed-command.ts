// `npm run seed [-- --members]`: empties the catalogue of the configured database (DATABASE_URL, else the
// embedded one in DATA_DIR: the running server's when it runs) and writes the demo catalogue again. Members are
// kept; --members also (re)adds the demo purchasers. A running server shows the new catalogue within seconds (its
// caches expire). Every failure is one sentence on stderr and exit code 1.
import { runCommand } from '#server/cli.ts'
import { loadConfig, loadEnvFile } from '#server/config.ts'
import { attachDemoMedia } from '#server/modules/media/demo-media.ts'
import { defaultIntegrations } from '#server/services.ts'
import { openDatabase, type Database } from './database.ts'
import { reseed } from './seed.ts'

let database: Database | undefined

async function main() {
  loadEnvFile()
  const config = loadConfig()
  const withMembers = process.argv.includes('--members')
  database = await openDatabase(config, { attach: true, notice: (line) => console.log(line) })
  try {
    await reseed(database.db, { members: withMembers })
    // The reseeded demo videos get their playable clips again.
    await attachDemoMedia(database.db, (await defaultIntegrations(config)).storage, {
      info: (m: unknown) => console.log(m),
      warn: (m: unknown) => console.warn(m),
    })
    console.log(`Demo catalogue reseeded${withMembers ? ' (and demo purchasers added)' : ''}.`)
    console.log('Rows that pointed at the old courses (orders, favourites, study records) were removed with them.')
  } finally {
    await database.close()
    database = undefined
  }
}

runCommand('npm run seed', main, async () => {
  await database?.close()
})
