// `npm run backup [-- --out <file.tar.gz | folder>]`: one archive with the database (every table, from one
// consistent snapshot, read through the server itself), the media of MEDIA_DIR and MEDIA_PRIVATE_DIR and the data
// folder's media signing secret; with object storage configured, a note of the buckets instead of their objects.
// Works while the server runs (it reads the running embedded database) and while it does not. Default output:
// ./backups/zixue-backup-<UTC time>.tar.gz. `npm run restore -- <archive>` brings it back (docs/operations.md).
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { runCommand } from '#server/cli.ts'
import { loadConfig, loadEnvFile } from '#server/config.ts'
import { defaultBackupName, writeBackup } from '#server/db/backup.ts'

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' } } })
  loadEnvFile()
  const config = loadConfig()
  const out = path.resolve(values.out ?? 'backups')
  const file = out.endsWith('.tar.gz') || out.endsWith('.tgz') ? out : path.join(out, defaultBackupName())
  if (fs.existsSync(file)) throw new Error(`${file} exists already; choose another --out.`)
  const manifest = await writeBackup(config, file, (line) => console.log(line))
  const rows = manifest.database.tables.reduce((n, t) => n + t.rows, 0)
  const { public: pub, private: priv } = manifest.media
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)
  console.log(
    `Backup written to ${file} (${mb(fs.statSync(file).size)} MB): ${manifest.database.tables.length} tables with ` +
      `${rows} rows (PostgreSQL ${manifest.database.server_version}, migrations up to ${manifest.database.migrations.latest}), ` +
      `${pub.files} public media files (${mb(pub.bytes)} MB), ${priv.files} private media files (${mb(priv.bytes)} MB).`,
  )
  if (manifest.object_storage)
    console.log(
      `Object storage (${JSON.stringify(manifest.object_storage.settings)}, versioning ` +
        `${JSON.stringify(manifest.object_storage.versioning)}): ${manifest.object_storage.note}`,
    )
}

runCommand('npm run backup', main)
