import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '#tests/support/free-port.ts'
import { runScript, startServerProcess, type ServerProcess } from '#tests/support/process.ts'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-commands-'))
fs.chmodSync(dir, 0o755)
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** A failure is exactly one line, `<command> failed: <sentence>`, exit code 1, and never `undefined`. */
function expectOneSentence(result: { code: number | null; output: string }, command: string, says: RegExp) {
  expect(result.code).toBe(1)
  const lines = result.output.trim().split('\n')
  expect(lines[0]).toMatch(new RegExp(`^${command} failed: `))
  expect(result.output).toMatch(says)
  expect(result.output).not.toMatch(/undefined|triggerUncaughtException|\n\s+at /)
}

// Each command is a Node process of its own (2–5 s each on a loaded 2-core machine): the cases that run four to six
// of them have a minute.
describe('operator commands: every failure is one sentence', () => {
  it('admin:create names a bad phone, a missing option and a wrong setting', async () => {
    const env = { DATA_DIR: path.join(dir, 'unused'), EMBEDDED_PG_PORT: String(await freePort()) }
    expectOneSentence(
      await runScript('scripts/create-admin.ts', ['--phone', '12'], env),
      'npm run admin:create',
      /手机号格式错误: 12$/m,
    )
    const usage = await runScript('scripts/create-admin.ts', [], env)
    expect(usage).toEqual({
      code: 2,
      output: 'Usage: npm run admin:create -- --phone 13800000000 [--nickname 管理员]\n',
    })
    expectOneSentence(
      await runScript('scripts/create-admin.ts', ['--phone', '13800000000', '--role', 'x'], env),
      'npm run admin:create',
      /Unknown option '--role'.+Usage:/,
    )
    expectOneSentence(
      await runScript('scripts/create-admin.ts', ['--phone', '13800000000'], { ...env, EMBEDDED_PG_PORT: 'x' }),
      'npm run admin:create',
      /EMBEDDED_PG_PORT/,
    )
  }, 60_000)

  it('admin:create says so when the database cannot be reached or its port is taken', async () => {
    const refused = await runScript('scripts/create-admin.ts', ['--phone', '13800000000'], {
      DATABASE_URL: 'postgres://postgres:zixue@127.0.0.1:1/zixue',
    })
    expectOneSentence(refused, 'npm run admin:create', /ECONNREFUSED.*is the database running/)

    // Another program listens on the embedded PostgreSQL's port: it cannot start (it used to print `undefined`).
    const blocker = net.createServer().listen(0, '127.0.0.1')
    await new Promise((r) => blocker.once('listening', r))
    const port = (blocker.address() as net.AddressInfo).port
    try {
      const taken = await runScript('scripts/create-admin.ts', ['--phone', '13800000000'], {
        DATA_DIR: path.join(dir, 'port-taken'),
        EMBEDDED_PG_PORT: String(port),
      })
      expectOneSentence(taken, 'npm run admin:create', new RegExp(`could not listen on port ${port}.+EMBEDDED_PG_PORT`))
    } finally {
      blocker.close()
    }
  }, 60_000)

  it('backup, restore and seed name what is wrong', async () => {
    const env = { DATA_DIR: path.join(dir, 'fresh'), EMBEDDED_PG_PORT: String(await freePort()) }
    expectOneSentence(
      await runScript('scripts/restore.ts', [path.join(dir, 'nothing.tar.gz')], env),
      'npm run restore',
      /There is no backup at .+nothing\.tar\.gz\.$/m,
    )
    const notAnArchive = path.join(dir, 'not-a-backup.tar.gz')
    fs.writeFileSync(notAnArchive, 'hello')
    expectOneSentence(await runScript('scripts/restore.ts', [notAnArchive], env), 'npm run restore', /tar failed/)
    expect((await runScript('scripts/restore.ts', [], env)).code).toBe(2)
    const existing = path.join(dir, 'already.tar.gz')
    fs.writeFileSync(existing, '')
    expectOneSentence(
      await runScript('scripts/backup.ts', ['--out', existing], env),
      'npm run backup',
      /already\.tar\.gz exists already; choose another --out\.$/m,
    )
    expectOneSentence(
      await runScript('server/db/seed-command.ts', [], { ...env, DATABASE_URL: 'mysql://nope' }),
      'npm run seed',
      /DATABASE_URL: must start with postgres/,
    )
  }, 60_000)
})

describe('commands while the server runs on the embedded database', () => {
  const servers: ServerProcess[] = []
  afterAll(async () => {
    for (const s of servers) await s.stop()
  })

  it('admin:create uses the running database; a second server on the same data folder is refused', async () => {
    const env = { DATA_DIR: path.join(dir, 'running'), EMBEDDED_PG_PORT: String(await freePort()), SEED_DEMO: 'false' }
    const server = await startServerProcess({ ...env, PORT: String(await freePort()) })
    servers.push(server)
    const made = await runScript('scripts/create-admin.ts', ['--phone', '13800001234', '--nickname', '运营'], env)
    expect(made.code).toBe(0)
    expect(made.output).toContain(
      `Using the embedded PostgreSQL of the running Zixue process (pid ${server.child.pid})`,
    )
    expect(made.output).toMatch(/Created admin: member \d+ \(138\*\*\*\*1234, 运营\)\./)
    const promoted = await runScript('scripts/create-admin.ts', ['--phone', '13800001234'], env)
    expect(promoted.output).toMatch(/Promoted admin/)
    // The command left the server's database running.
    expect((await fetch(`${server.baseUrl}/api/health/ready`)).status).toBe(200)

    const second = await runScript('server/main.ts', [], { ...env, PORT: String(await freePort()) })
    expectOneSentence(
      second,
      'Zixue',
      new RegExp(`Another Zixue process \\(pid ${server.child.pid}\\) is running on the data folder .+: stop it first`),
    )
    expect(await server.stop()).toBe(0)

    // With the server stopped, the command starts the embedded database itself and stops it again.
    const alone = await runScript('scripts/create-admin.ts', ['--phone', '13800005678'], env)
    expect(alone.output).toMatch(/Created admin/)
    expect(fs.existsSync(path.join(env.DATA_DIR, 'pg', 'postmaster.pid'))).toBe(false)
  }, 120_000)
})
