// `npm run backup` and `npm run restore -- <archive>` (scripts/backup.ts, scripts/restore.ts): one .tar.gz with
// the database (server/db/dump.ts: COPY through the server itself, schema as the migrations it carries), both
// media folders, the data folder's media signing secret, and a note of the object storage when one is configured.
// docs/operations.md describes what they do; docs/decisions/2026-11-25-backups.md why this way.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import pg from 'pg'
import type { Config } from '#server/config.ts'
import { bucketVersioning } from '#server/integrations/storage/stores.ts'
import { connectDatabase, migrationsFolder, openDatabase } from './database.ts'
import { dumpDatabase, loadDump, type DatabaseDump } from './dump.ts'
import { startEmbeddedPostgres } from './embedded-postgres.ts'

const FORMAT = 'zixue-backup'
const SECRET_FILE = 'media-signing.secret'

interface MediaPart {
  /** Where the folder was (MEDIA_DIR, MEDIA_PRIVATE_DIR). */
  from: string
  files: number
  bytes: number
}

export interface BackupManifest {
  format: typeof FORMAT
  version: 1
  created_at: string
  database: DatabaseDump
  media: { public: MediaPart; private: MediaPart }
  /** Files of the data folder itself (the media signing secret when MEDIA_SIGNING_SECRET is not set). */
  data_files: string[]
  /** With object storage the media live in buckets, not in this archive: what to back up there instead. */
  object_storage: { settings: Record<string, string>; versioning: Record<string, string>; note: string } | null
}

/** Files and bytes under a folder (temporary `.part` files of unfinished writes are not media). */
function count(dir: string): { files: number; bytes: number } {
  let files = 0
  let bytes = 0
  if (!fs.existsSync(dir)) return { files, bytes }
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.name.endsWith('.part')) continue
    const full = path.join(entry.parentPath, entry.name)
    const stat = fs.statSync(full, { throwIfNoEntry: false })
    if (stat?.isFile()) {
      files++
      bytes += stat.size
    }
  }
  return { files, bytes }
}

function run(command: string, args: string[]) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', (err) => reject(new Error(`${command} could not run: ${err.message}`)))
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (exit ${code}): ${stderr.trim().split('\n')[0]}`)),
    )
  })
}

/**
 * With object storage, what the archive says instead of holding the media: the S3_* settings (secrets left out) as
 * the environment gave them, and each bucket's versioning as the store reports it.
 */
async function objectStorage(config: Config, env: NodeJS.ProcessEnv): Promise<BackupManifest['object_storage']> {
  const versioning = await bucketVersioning(config.storage)
  if (!versioning) return null
  const settings: Record<string, string> = { STORAGE: config.storage.kind }
  for (const [key, value] of Object.entries(env))
    if (key.startsWith('S3_') && value && !/SECRET|KEY|PASSWORD|TOKEN/i.test(key)) settings[key] = value
  const off = Object.entries(versioning).filter(([, status]) => status !== 'enabled')
  return {
    settings,
    versioning,
    note:
      'Media live in the buckets named here, not in this archive. ' +
      (off.length === 0
        ? 'Versioning is on for both, so their objects can be brought back to the time of this backup.'
        : `Versioning is not on for ${off.map(([b, status]) => `${b} (${status})`).join(', ')}: turn it on (or ` +
          "replicate the buckets with the provider's tools), or objects deleted or overwritten after this backup " +
          'cannot be brought back.'),
  }
}

export function defaultBackupName(now = new Date()) {
  return `zixue-backup-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.tar.gz`
}

/**
 * Writes the backup archive to `file` (through `<file>.part`, renamed when complete). The database is dumped first
 * from one snapshot, the media after it, so every file a dumped row names is in the archive.
 */
export async function writeBackup(config: Config, file: string, notice: (line: string) => void) {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const staging = fs.mkdtempSync(path.join(path.dirname(file), '.zixue-backup-'))
  fs.chmodSync(staging, 0o755)
  try {
    // The running server's database when it runs (nothing is stopped), else the embedded one started for this.
    const database = await openDatabase(config, { attach: true, migrate: false, notice })
    let dump: DatabaseDump
    try {
      const client = await database.pool.connect()
      try {
        dump = await dumpDatabase(client, path.join(staging, 'database'))
      } finally {
        client.release()
      }
    } finally {
      await database.close()
    }
    fs.cpSync(migrationsFolder, path.join(staging, 'database', 'migrations'), { recursive: true })
    // The media folders go in through links that tar follows, so nothing is copied twice on disk.
    fs.mkdirSync(path.join(staging, 'media'))
    const media = { public: config.mediaDir, private: config.media.privateDir }
    for (const [name, dir] of Object.entries(media)) {
      if (fs.existsSync(dir)) fs.symlinkSync(dir, path.join(staging, 'media', name))
      else fs.mkdirSync(path.join(staging, 'media', name))
    }
    const dataFiles = [SECRET_FILE].filter((f) => fs.existsSync(path.join(config.dataDir, f)))
    fs.mkdirSync(path.join(staging, 'data'))
    for (const f of dataFiles) fs.copyFileSync(path.join(config.dataDir, f), path.join(staging, 'data', f))
    const manifest: BackupManifest = {
      format: FORMAT,
      version: 1,
      created_at: new Date().toISOString(),
      database: dump,
      media: {
        public: { from: media.public, ...count(media.public) },
        private: { from: media.private, ...count(media.private) },
      },
      data_files: dataFiles,
      object_storage: await objectStorage(config, process.env),
    }
    fs.writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
    const part = `${file}.part`
    await run('tar', ['-czhf', part, '--exclude=*.part', '-C', staging, '.'])
    fs.renameSync(part, file)
    return manifest
  } finally {
    fs.rmSync(staging, { recursive: true, force: true })
    fs.rmSync(`${file}.part`, { force: true })
  }
}

function isEmptyDir(dir: string) {
  return !fs.existsSync(dir) || fs.readdirSync(dir).length === 0
}

/** A TCP port nothing listens on (the restore's own PostgreSQL must not meet a running server's). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

/** Moves (or, across file systems, copies) a restored folder into place. */
function moveInto(from: string, to: string) {
  if (!fs.existsSync(from)) return
  fs.mkdirSync(path.dirname(to), { recursive: true })
  fs.rmSync(to, { recursive: true, force: true })
  try {
    fs.renameSync(from, to)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err
    fs.cpSync(from, to, { recursive: true })
  }
}

/** Why the configured place is not fresh enough to restore into, or null. */
async function notFresh(config: Config): Promise<string | null> {
  for (const dir of [config.mediaDir, config.media.privateDir]) if (!isEmptyDir(dir)) return `${dir} is not empty`
  if (config.database.url) {
    const client = new pg.Client({ connectionString: config.database.url })
    await client.connect()
    try {
      const { rows } = await client.query<{ n: number }>(
        "select count(*)::int as n from pg_tables where schemaname in ('public', 'drizzle')",
      )
      return rows[0]!.n > 0 ? 'the database of DATABASE_URL already has tables' : null
    } finally {
      await client.end()
    }
  }
  if (fs.existsSync(path.join(config.database.embeddedDir, 'PG_VERSION')))
    return `${config.database.embeddedDir} already holds a database`
  return null
}

/**
 * Brings an archive back into a fresh data folder (or the empty database of DATABASE_URL and empty media
 * folders): the database is migrated with the archive's own migrations and loaded in one transaction; the
 * embedded one is built next to the data folder and moved into place only once it is complete.
 */
export async function restoreBackup(config: Config, archive: string, notice: (line: string) => void) {
  if (!fs.existsSync(archive)) throw new Error(`There is no backup at ${archive}.`)
  const problem = await notFresh(config)
  if (problem) throw new Error(`Restore needs a fresh data folder, and ${problem}: set DATA_DIR to a new folder.`)
  fs.mkdirSync(config.dataDir, { recursive: true })
  const work = fs.mkdtempSync(path.join(config.dataDir, '.restoring-'))
  try {
    await run('tar', ['-xzf', archive, '-C', work])
    // The embedded server runs as the postgres user when this runs as root: it must reach its folder (tar set the
    // folder's mode to the archive's).
    fs.chmodSync(work, 0o755)
    const manifestFile = path.join(work, 'manifest.json')
    const manifest = fs.existsSync(manifestFile)
      ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BackupManifest)
      : null
    if (manifest?.format !== FORMAT || manifest.version !== 1)
      throw new Error(`${archive} is not a Zixue backup (no manifest.json of format ${FORMAT} 1).`)
    const migrations = { migrationsFolder: path.join(work, 'database', 'migrations') }
    const server = config.database.url
      ? null
      : await startEmbeddedPostgres(path.join(work, 'pg'), await freePort(), { notice })
    try {
      if (server) {
        const admin = new pg.Client({ connectionString: server.url('postgres') })
        await admin.connect()
        await admin.query('create database zixue').finally(() => admin.end())
      }
      const database = await connectDatabase(server?.url('zixue') ?? config.database.url!, 2, undefined, migrations)
      try {
        const client = await database.pool.connect()
        try {
          await loadDump(client, path.join(work, 'database'), manifest.database)
        } finally {
          client.release()
        }
      } finally {
        await database.close()
      }
    } finally {
      await server?.stop()
    }
    if (server) moveInto(path.join(work, 'pg'), config.database.embeddedDir)
    moveInto(path.join(work, 'media', 'public'), config.mediaDir)
    moveInto(path.join(work, 'media', 'private'), config.media.privateDir)
    for (const f of manifest.data_files) moveInto(path.join(work, 'data', f), path.join(config.dataDir, f))
    return manifest
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
}
