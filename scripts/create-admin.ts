// `npm run admin:create -- --phone 13800000000 [--nickname 管理员]`: makes the member with that phone an operator
// (creating the member if there is none), on the configured database (DATABASE_URL, else the embedded one in
// DATA_DIR; stop a running embedded server first). The operator then signs in with an SMS code.
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig, loadEnvFile } from '#server/config.ts'
import { openDatabase } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { createAdmin } from '#server/modules/admin/create-admin.ts'

async function main() {
  const { values } = parseArgs({ options: { phone: { type: 'string' }, nickname: { type: 'string' } } })
  if (!values.phone) {
    console.error('Usage: npm run admin:create -- --phone 13800000000 [--nickname 管理员]')
    process.exit(2)
  }
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
  const database = await openDatabase(config)
  try {
    const admin = await createAdmin(database.db, { phone: values.phone, nickname: values.nickname })
    console.log(
      `${admin.created ? 'Created' : 'Promoted'} admin: member ${admin.member_id} (${admin.phone}, ${admin.nickname}).`,
    )
  } catch (err) {
    if (err instanceof AppError) {
      console.error(`${err.message}: ${values.phone}`)
      process.exitCode = 1
    } else throw err
  } finally {
    await database.close()
  }
}

await main()
