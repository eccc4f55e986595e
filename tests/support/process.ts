// The server and the operator commands as child processes, for the tests of what operators do: backups, restores,
// crashes and restarts, commands while the server runs. Each server gets the environment given (its data folder,
// ports); the production build must exist (npm test builds before the tests; BUILD_DIR may point at another).
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../..')

export interface ServerProcess {
  child: ChildProcess
  baseUrl: string
  exited: Promise<number | null>
  output: () => string
  /** SIGTERM and wait for the exit code. */
  stop: () => Promise<number | null>
}

const quiet = { APP_ENV: 'demo', RATE_LIMIT: 'false', LOG_LEVEL: 'warn', HOST: '127.0.0.1', NODE_ENV: 'production' }

/** Starts `server/main.ts` (what `npm start` runs once the build is there) and waits until it is ready. */
export async function startServerProcess(env: Record<string, string> & { PORT: string }): Promise<ServerProcess> {
  const child = spawn(process.execPath, [path.join(root, 'server/main.ts')], {
    cwd: root,
    env: { ...process.env, ...quiet, PUBLIC_URL: `http://127.0.0.1:${env.PORT}`, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr.on('data', (d: Buffer) => (output += d.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  let down = false
  void exited.then(() => (down = true))
  const baseUrl = `http://127.0.0.1:${env.PORT}`
  const server: ServerProcess = {
    child,
    baseUrl,
    exited,
    output: () => output,
    stop: async () => {
      if (!down) child.kill('SIGTERM')
      return exited
    },
  }
  for (let i = 0; i < 600 && !down; i++) {
    try {
      if ((await fetch(`${baseUrl}/api/health/ready`)).ok) return server
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  if (!down) child.kill('SIGKILL')
  throw new Error(`the server did not come up:\n${output}`)
}

/** Runs an operator command (`scripts/<name>.ts`) to its end: exit code and everything it printed. */
export function runScript(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [path.join(root, script), ...args], {
      cwd: root,
      env: { ...process.env, ...quiet, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.once('exit', (code) => resolve({ code, output }))
  })
}
