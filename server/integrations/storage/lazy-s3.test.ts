import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { useTestDatabase } from '#tests/support/database.ts'

const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, '../../..')

/**
 * Builds the app in a fresh process (as server/main.ts does, without listening) and prints every module of the S3
 * adapter it resolved: the AWS SDK, @tus/s3-store and s3.ts itself. The hook sees imports and requires alike.
 */
const builder = `
import { registerHooks } from 'node:module'
const s3Modules = new Set()
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context)
    const m = /node_modules\\/(@aws-sdk\\/[^/]+|@smithy\\/[^/]+|@tus\\/s3-store)\\/|server\\/integrations\\/storage\\/s3\\.ts$/.exec(resolved.url)
    if (m) s3Modules.add(m[1] ?? 's3.ts')
    return resolved
  },
})
const { buildApp } = await import('#server/app.ts')
const { loadConfig } = await import('#server/config.ts')
const { connectDatabase } = await import('#server/db/database.ts')
const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false', ...JSON.parse(process.env.TEST_ENV) })
const database = await connectDatabase(process.env.TEST_DATABASE, 2, undefined, { migrate: false })
const app = await buildApp(config, { database, logger: false })
await app.ready()
await app.close()
await database.close()
console.log(JSON.stringify([...s3Modules].sort()))
`

async function s3ModulesLoaded(env: Record<string, string>, databaseUrl: string): Promise<string[]> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', builder], {
    cwd: root,
    env: { ...process.env, TEST_ENV: JSON.stringify(env), TEST_DATABASE: databaseUrl },
  })
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as string[]
}

// Each test imports and builds the whole app in a new process: seconds, more on a loaded machine.
describe('the S3 adapter loads only with STORAGE=s3', { timeout: 60_000 }, () => {
  const database = useTestDatabase(2)

  it('leaves the AWS SDK and @tus/s3-store unloaded with local folders', async () => {
    expect(await s3ModulesLoaded({ STORAGE: 'local' }, (await database()).url)).toEqual([])
  })

  it('loads them with STORAGE=s3', async () => {
    const s3 = {
      STORAGE: 's3',
      S3_ENDPOINT: 'http://127.0.0.1:9',
      S3_BUCKET_PUBLIC: 'zixue-public',
      S3_BUCKET_PRIVATE: 'zixue-private',
      S3_FORCE_PATH_STYLE: 'true',
    }
    const loaded = await s3ModulesLoaded(s3, (await database()).url)
    expect(loaded).toEqual(expect.arrayContaining(['s3.ts', '@aws-sdk/client-s3', '@tus/s3-store']))
  })
})
