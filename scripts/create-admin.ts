// `npm run admin:create -- --phone 13800000000 [--nickname 管理员]`: makes the member with that phone an operator
// (creating the member if there is none), on the configured database (DATABASE_URL, else the embedded one in
// DATA_DIR: the running server's when it runs, otherwise started for the command and stopped after it). The
// operator then signs in with an SMS code. Every failure is one sentence on stderr and exit code 1.
import { parseArgs } from 'node:util'
import { runCommand } from '#server/cli.ts'
import { loadConfig, loadEnvFile } from '#server/config.ts'
import { openDatabase, type Database } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { createAdmin } from '#server/modules/admin/create-admin.ts'

const usage = 'Usage: npm run admin:create -- --phone 13800000000 [--nickname 管理员]'
let database: Database | undefined

async function main() {
  let values
  try {
    ;({ values } = parseArgs({ options: { phone: { type: 'string' }, nickname: { type: 'string' } } }))
  } catch (err) {
    throw new Error(`${err instanceof Error ? err.message : String(err)}. ${usage}`, { cause: err })
  }
  if (!values.phone) {
    console.error(usage)
    process.exit(2)
  }
  loadEnvFile()
  const config = loadConfig()
  database = await openDatabase(config, { attach: true, notice: (line) => console.log(line) })
  try {
    const admin = await createAdmin(database.db, { phone: values.phone, nickname: values.nickname })
    console.log(
      `${admin.created ? 'Created' : 'Promoted'} admin: member ${admin.member_id} (${admin.phone}, ${admin.nickname}).`,
    )
  } catch (err) {
    if (err instanceof AppError) throw new Error(`${err.message}: ${values.phone}`, { cause: err })
    throw err
  } finally {
    await database.close()
    database = undefined
  }
}

runCommand('npm run admin:create', main, async () => {
  await database?.close()
})
