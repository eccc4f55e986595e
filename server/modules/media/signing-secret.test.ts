import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { useTestDatabase } from '#tests/support/database.ts'
import { signingSecretSource } from './signing.ts'

const folders: string[] = []
afterAll(() => folders.forEach((f) => fs.rmSync(f, { recursive: true, force: true })))
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-secret-'))
  folders.push(dir)
  return dir
}

describe('the playback signing secret', () => {
  const database = useTestDatabase()

  it('is created once in the database and shared by processes with different data folders', async () => {
    const { db } = await database()
    const config = (dir: string) => loadConfig({ APP_ENV: 'demo', DATA_DIR: dir })
    const [a, b] = await Promise.all([
      signingSecretSource(config(dataDir()), db)(),
      signingSecretSource(config(dataDir()), db)(),
    ])
    expect(a).toMatch(/^[0-9a-f]{64}$/)
    expect(b).toBe(a)
    expect(await signingSecretSource(config(dataDir()), db)()).toBe(a)
  })

  it('takes over the secret an older version kept in the data folder, if it is the first', async () => {
    const { db } = await database()
    await db.execute("delete from media_secrets where name = 'playback-signing'")
    const dir = dataDir()
    const legacy = crypto.randomBytes(32).toString('hex')
    fs.writeFileSync(path.join(dir, 'media-signing.secret'), `${legacy}\n`)
    expect(await signingSecretSource(loadConfig({ APP_ENV: 'development', DATA_DIR: dir }), db)()).toBe(legacy)
    expect(await signingSecretSource(loadConfig({ APP_ENV: 'development', DATA_DIR: dataDir() }), db)()).toBe(legacy)
  })

  it('is MEDIA_SIGNING_SECRET when set, without the database', async () => {
    const secret = 'x'.repeat(40)
    const unused = {} as Parameters<typeof signingSecretSource>[1]
    expect(await signingSecretSource(loadConfig({ MEDIA_SIGNING_SECRET: secret }), unused)()).toBe(secret)
  })
})
