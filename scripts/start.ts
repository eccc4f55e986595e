// `npm start`: builds the front end when the build is missing or older than its sources, then runs the server
// (server/main.ts: a failure to start is one sentence and exit code 1).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { runCommand } from '#server/cli.ts'
import { loadEnvFile } from '#server/config.ts'

const root = path.resolve(import.meta.dirname, '..')
const sources = [
  'app',
  'vite.config.ts',
  'scripts/trim-react-router.ts',
  'scripts/css-class-names.ts',
  'react-router.config.ts',
  'package-lock.json',
]

function newest(p: string): number {
  const full = path.join(root, p)
  if (!fs.existsSync(full)) return 0
  const stat = fs.statSync(full)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...fs.readdirSync(full).map((name) => newest(path.join(p, name))))
}

async function main() {
  // BUILD_DIR may come from .env, like everything server/main.ts reads.
  loadEnvFile()
  const output = path.join(path.resolve(root, process.env.BUILD_DIR ?? 'build'), 'server/index.js')
  const built = fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0
  if (built < Math.max(...sources.map(newest))) {
    console.log('Building the front end…')
    const result = spawnSync(process.execPath, [path.join(root, 'node_modules/@react-router/dev/bin.cjs'), 'build'], {
      cwd: root,
      stdio: 'inherit',
    })
    if (result.status !== 0) throw new Error('the front-end build failed (its output is above)')
  }
  process.env.NODE_ENV ??= 'production'
  await import('../server/main.ts')
}

runCommand('npm start', main)
