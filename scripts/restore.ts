// `npm run restore -- <archive>`: brings a backup made by `npm run backup` back into a fresh data folder (DATA_DIR
// without a database, empty MEDIA_DIR and MEDIA_PRIVATE_DIR), or into the empty database of DATABASE_URL. Start
// the server afterwards as usual (`npm start`): it applies any newer migrations. Every failure is one sentence.
import path from 'node:path'
import { runCommand } from '#server/cli.ts'
import { loadConfig, loadEnvFile } from '#server/config.ts'
import { restoreBackup } from '#server/db/backup.ts'

async function main() {
  const archive = process.argv.slice(2).find((a) => !a.startsWith('--'))
  if (!archive) {
    console.error('Usage: npm run restore -- <backup.tar.gz>   (into a fresh DATA_DIR)')
    process.exit(2)
  }
  loadEnvFile()
  const config = loadConfig()
  const manifest = await restoreBackup(config, path.resolve(archive), (line) => console.log(line))
  const rows = manifest.database.tables.reduce((n, t) => n + t.rows, 0)
  console.log(
    `Restored the backup of ${manifest.created_at}: ${rows} rows into ${config.database.url ? 'DATABASE_URL' : config.database.embeddedDir}, ` +
      `${manifest.media.public.files + manifest.media.private.files} media files into ${config.mediaDir} and ${config.media.privateDir}. ` +
      'Start the server with npm start.',
  )
  if (manifest.object_storage) console.log(`Object storage: ${manifest.object_storage.note}`)
}

runCommand('npm run restore', main)
