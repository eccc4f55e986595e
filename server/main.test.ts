import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '#tests/support/free-port.ts'

const root = path.resolve(import.meta.dirname, '..')
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-main-test-'))
fs.chmodSync(dataDir, 0o755)
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(root, 'server/main.ts')], {
    cwd: root,
    env: { ...process.env, APP_ENV: 'test', LOG_LEVEL: 'warn', SEED_DEMO: 'false', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr.on('data', (d: Buffer) => (output += d.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, exited, output: () => output }
}

async function waitUntilUp(url: string, exited: Promise<unknown>, output: () => string) {
  let down = false
  void exited.then(() => (down = true))
  for (let i = 0; i < 240 && !down; i++) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`server did not come up:\n${output()}`)
}

describe('the server process (server/main.ts)', () => {
  it('refuses to start on a wrong setting and names it', async () => {
    const server = startServer({ PORT: 'not-a-port', DATA_DIR: dataDir })
    expect(await server.exited).toBe(1)
    expect(server.output()).toContain('PORT')
  })

  it('starts on the embedded database, keeps data across restarts and stops cleanly on SIGTERM', async () => {
    const port = await freePort()
    const pgPort = await freePort()
    const env = { PORT: String(port), EMBEDDED_PG_PORT: String(pgPort), DATA_DIR: dataDir }

    // At info, with the access log: lines are written asynchronously (server/main.ts) and must all be out at exit.
    const first = startServer({ ...env, LOG_LEVEL: 'info' })
    await waitUntilUp(`http://127.0.0.1:${port}/api/health`, first.exited, first.output)
    const client = new pg.Client({ connectionString: `postgres://postgres:zixue@127.0.0.1:${pgPort}/zixue` })
    await client.connect()
    await client.query("insert into hot_words (word) values ('跨重启保留')")
    await client.end()
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    const lines = first
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; path?: string; status?: number })
    expect(lines.some((l) => l.msg === 'request' && l.path === '/api/health' && l.status === 200)).toBe(true)
    expect(lines.some((l) => l.msg === 'shutting down: finishing in-flight requests')).toBe(true)
    expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false)

    const second = startServer(env)
    await waitUntilUp(`http://127.0.0.1:${port}/api/health`, second.exited, second.output)
    const again = new pg.Client({ connectionString: `postgres://postgres:zixue@127.0.0.1:${pgPort}/zixue` })
    await again.connect()
    const { rows } = await again.query("select count(*)::int as n from hot_words where word = '跨重启保留'")
    await again.end()
    expect(rows[0]).toEqual({ n: 1 })
    second.child.kill('SIGINT')
    expect(await second.exited).toBe(0)
  }, 90_000)
})
