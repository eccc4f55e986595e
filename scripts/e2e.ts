// Browser journeys (tests/e2e): needs `npm run build` first; `npm test` runs both in order.
import { spawnSync } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const result = spawnSync(
  path.join(root, 'node_modules/.bin/vitest'),
  ['run', '--config', 'vitest.e2e.config.ts', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
)
if (result.error) console.error(`npm run test:e2e failed: vitest could not run (${result.error.message})`)
process.exit(result.status ?? 1)
