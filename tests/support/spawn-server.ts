// The server as a child process on free ports, for the benches (bench/*.ts) and the browser journeys
// (tests/e2e/support/server.ts). Node built-ins only: the benches run it outside vitest.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from './free-port.ts'

const root = path.resolve(import.meta.dirname, '../..')

/** Where `react-router build` wrote the front end: BUILD_DIR, read the way the server reads it. */
export const buildDir = path.resolve(root, process.env.BUILD_DIR ?? 'build')

export interface ServerOptions {
  /**
   * The entry file, from the project root. `server/main.ts` (the default) serves the production build, which must
   * exist, with NODE_ENV=production; server/modules/payments/testing-server.ts needs no build.
   */
  entry?: string
  /** Node flags before the entry (`--cpu-prof`, `--import …`). */
  nodeArgs?: string[]
  /** The server's database. Without it, the server runs its own embedded PostgreSQL in its fresh folder. */
  databaseUrl?: string
  /** More environment variables, over the defaults (demo mode, 127.0.0.1, LOG_LEVEL warn). */
  env?: Record<string, string>
  /** Prefix of the fresh temporary folder. */
  name?: string
  /** The server's output into `server.log` in its folder; otherwise it shares this process's terminal. */
  logToFile?: boolean
  /**
   * TLS_CERT_FILE and TLS_KEY_FILE: the server answers https (HTTP/2, with HTTP/1.1 as fallback). The caller must
   * trust the certificate for the health check (a bench with a throwaway one: NODE_TLS_REJECT_UNAUTHORIZED=0).
   */
  tls?: { certFile: string; keyFile: string }
}

export interface RunningServer {
  baseUrl: string
  port: number
  child: ChildProcess
  /** The database the server uses: the one given, or its embedded one (credentials from server/db/database.ts). */
  databaseUrl: string
  logFile: string | null
  /** SIGTERM, waits for the process to end and removes its folder. */
  stop: () => Promise<void>
}

/** Starts the server in a fresh temporary folder and resolves once GET /api/health answers. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const entry = options.entry ?? 'server/main.ts'
  const production = entry === 'server/main.ts'
  if (production && !fs.existsSync(path.join(buildDir, 'server/index.js')))
    throw new Error(`Run \`npm run build\` first (nothing built in ${buildDir}).`)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${options.name ?? 'zixue-server'}-`))
  fs.chmodSync(dir, 0o755)
  const port = await freePort()
  const baseUrl = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`
  const pgPort = options.databaseUrl ? 0 : await freePort()
  const logFile = options.logToFile ? path.join(dir, 'server.log') : null
  const out = logFile ? fs.openSync(logFile, 'a') : 'inherit'
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), path.join(root, entry)], {
    cwd: root,
    env: {
      ...process.env,
      ...(production && { NODE_ENV: 'production' }),
      APP_ENV: 'demo',
      RATE_LIMIT: 'false',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      ...(options.databaseUrl
        ? { DATABASE_URL: options.databaseUrl }
        : { DATA_DIR: dir, EMBEDDED_PG_PORT: String(pgPort) }),
      LOG_LEVEL: 'warn',
      ...(options.tls && { TLS_CERT_FILE: options.tls.certFile, TLS_KEY_FILE: options.tls.keyFile }),
      ...options.env,
    },
    stdio: ['ignore', out, out],
  })
  if (typeof out === 'number') fs.closeSync(out)
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const stop = async () => {
    child.kill('SIGTERM')
    await exited
    fs.rmSync(dir, { recursive: true, force: true })
  }

  const output = () => (logFile ? `:\n${fs.readFileSync(logFile, 'utf8')}` : ' (its output is above)')
  const deadline = Date.now() + 90_000
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`The server exited early${output()}`)
      try {
        if ((await fetch(`${baseUrl}/api/health`)).ok) break
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`The server did not start${output()}`)
      await new Promise((r) => setTimeout(r, 250))
    }
  } catch (err) {
    await stop()
    throw err
  }
  const databaseUrl = options.databaseUrl ?? `postgres://postgres:zixue@127.0.0.1:${pgPort}/zixue`
  return { baseUrl, port, child, databaseUrl, logFile, stop }
}
