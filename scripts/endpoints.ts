// `npm run endpoints`: which of the specification's section-7 endpoints the server registers, and which not yet.
// An endpoint counts only when a route exists for it; the project has no stubs, so a registered one works.
import { drizzle } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import { buildApp } from '#server/app.ts'
import { runCommand } from '#server/cli.ts'
import { loadConfig } from '#server/config.ts'
import { schema, type Database } from '#server/db/database.ts'
import { specEndpoints } from './spec-endpoints.ts'

async function main() {
  // Registering routes queries nothing, so a pool that never connects is enough to list them.
  const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', max: 1 })
  const database: Database = {
    db: drizzle({ client: pool, schema, casing: 'snake_case' }),
    pool,
    url: '',
    close: () => pool.end(),
  }
  const app = await buildApp(loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent' }), { database, logger: false })
  await app.ready()

  const done: string[] = []
  const missing: string[] = []
  for (const endpoint of specEndpoints) {
    const [method, path] = endpoint.split(' ') as [string, string]
    const found = app.hasRoute({ method, url: `/api${path}` })
    ;(found ? done : missing).push(endpoint)
  }
  await app.close()
  await pool.end()

  const verbose = process.argv.includes('--list')
  console.log(`Spec section 7 endpoints registered: ${done.length} of ${specEndpoints.length}`)
  if (verbose) {
    console.log('\nRegistered:')
    for (const e of done) console.log(`  ✔ ${e}`)
    console.log('\nNot yet:')
    for (const e of missing) console.log(`  · ${e}`)
  } else {
    console.log(`Not yet (${missing.length}): ${missing.join(', ')}`)
    console.log('(--list prints both lists one per line)')
  }
}

runCommand('npm run endpoints', main)
