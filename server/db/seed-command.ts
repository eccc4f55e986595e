// `npm run seed [-- --members]`: empties the catalogue of the configured database (DATABASE_URL, else the
// embedded one in DATA_DIR) and writes the demo catalogue again. Members are kept; --members also (re)adds the
// demo purchasers. Stop a running embedded server first: two processes cannot share its data folder.
import { ConfigError, loadConfig, loadEnvFile } from '#server/config.ts'
import { attachDemoMedia } from '#server/modules/media/demo-media.ts'
import { defaultIntegrations } from '#server/services.ts'
import { openDatabase } from './database.ts'
import { reseed } from './seed.ts'

async function main() {
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
  const withMembers = process.argv.includes('--members')
  const database = await openDatabase(config)
  try {
    await reseed(database.db, { members: withMembers })
    // The reseeded demo videos get their playable clips again.
    await attachDemoMedia(database.db, defaultIntegrations(config).storage, {
      info: (m: unknown) => console.log(m),
      warn: (m: unknown) => console.warn(m),
    })
    console.log(`Demo catalogue reseeded${withMembers ? ' (and demo purchasers added)' : ''}.`)
    console.log('Rows that pointed at the old courses (orders, favourites, study records) were removed with them.')
  } finally {
    await database.close()
  }
}

await main()
