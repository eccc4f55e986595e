import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { freePort } from '#tests/support/free-port.ts'

const root = path.resolve(import.meta.dirname, '../../..')

/** Starts `server/main.ts` (production build, demo mode, fresh data folder) for the browser journeys. */
export default async function setup(project: TestProject) {
  if (!fs.existsSync(path.join(path.resolve(root, process.env.BUILD_DIR ?? 'build'), 'server/index.js'))) throw new Error('Run `npm run build` before the browser tests.')
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-e2e-'))
  fs.chmodSync(dataDir, 0o755)
  const port = await freePort()
  const pgPort = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const logFile = path.join(dataDir, 'server.log')
  const log = fs.openSync(logFile, 'a')
  const child = spawn(process.execPath, [path.join(root, 'server/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      APP_ENV: 'demo',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      LOG_LEVEL: 'warn',
      // Every journey signs in from 127.0.0.1: the per-address SMS limit is for real networks.
      SMS_PER_IP_PER_HOUR: '10000',
    },
    stdio: ['ignore', log, log],
  })
  const deadline = Date.now() + 90_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited early:\n${fs.readFileSync(logFile, 'utf8')}`)
    try {
      const res = await fetch(`${baseUrl}/api/health`)
      if (res.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The server did not start:\n${fs.readFileSync(logFile, 'utf8')}`)
    await new Promise((r) => setTimeout(r, 250))
  }
  project.provide('baseUrl', baseUrl)
  project.provide('serverLog', logFile)
  // The embedded server's own credentials (server/db/database.ts), for journeys that act as an operator would
  // with `npm run admin:create` on the server's database.
  project.provide('databaseUrl', `postgres://postgres:zixue@127.0.0.1:${pgPort}/zixue`)
  return async () => {
    child.kill('SIGTERM')
    await new Promise((r) => child.once('exit', r))
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    serverLog: string
    databaseUrl: string
  }
}
