// `npm test`: everything CI checks, in order: lint, typecheck, unit and API tests, the production build, browser tests.
import { spawnSync } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const bin = (name: string) => path.join(root, 'node_modules/.bin', name)

const steps: [string, string, string[]][] = [
  // Route modules import their generated `+types`: generate them before anything reads the types.
  ['typegen', bin('react-router'), ['typegen']],
  ['format', bin('prettier'), ['--check', '--log-level', 'warn', '.']],
  ['lint', bin('eslint'), ['.']],
  // Who may import whom, no cycles between modules, no module naming another's table (docs/architecture.md).
  ['architecture', process.execPath, [path.join(root, 'scripts/check-architecture.ts')]],
  // Unused files, exports, types and dependencies (knip.json).
  ['unused code', bin('knip'), ['--no-progress']],
  ['typecheck', bin('tsc'), []],
  // The process tests (server/main.test.ts) start the production server, which serves the build.
  ['build', bin('react-router'), ['build']],
  // .br and .gz next to the built assets, as `npm run build` does (served precompressed).
  ['precompress', process.execPath, [path.join(root, 'scripts/precompress.ts')]],
  ['unit and API tests', bin('vitest'), ['run']],
  ['browser tests', process.execPath, [path.join(root, 'scripts/e2e.ts')]],
]

const only = process.argv.slice(2)
for (const [name, command, args] of steps) {
  if (only.length > 0 && !only.some((o) => name.includes(o))) continue
  console.log(`\n▶ ${name}`)
  const started = Date.now()
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) {
    console.error(`✖ ${name} failed`)
    process.exit(result.status ?? 1)
  }
  console.log(`✔ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
}
