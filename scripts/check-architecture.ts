// `npm test` step "architecture": who may import whom (.dependency-cruiser.cjs), no cycles between modules, and
// no repository that names another module's table in raw SQL. Prints what to do instead, exits 1 on any finding.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const isTest = (file: string) => /\.test\.tsx?$|\/testing[^/]*\.ts$|^tests\//.test(file)

interface Violation {
  from: string
  to: string
  rule: { name: string }
  cycle?: { name: string }[]
}
interface Cruised {
  source: string
  dependencies: { resolved: string; dependencyTypes: string[] }[]
}
interface CruiseResult {
  modules: Cruised[]
  summary: { violations: Violation[]; ruleSetUsed: { forbidden: { name: string; comment: string }[] } }
}

function cruise(): CruiseResult {
  const bin = path.join(root, 'node_modules/.bin/depcruise')
  const args = ['server', 'app', 'shared', '--config', '.dependency-cruiser.cjs', '--output-type', 'json']
  const run = spawnSync(bin, args, { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
  if (run.status !== 0 && !run.stdout.startsWith('{')) {
    console.error(run.stderr || run.stdout)
    process.exit(1)
  }
  return JSON.parse(run.stdout) as CruiseResult
}

/** The file rules of .dependency-cruiser.cjs. */
function ruleFindings(result: CruiseResult): string[] {
  const advice = new Map(result.summary.ruleSetUsed.forbidden.map((r) => [r.name, r.comment]))
  const byRule = new Map<string, string[]>()
  for (const v of result.summary.violations) {
    const line = v.cycle ? `${v.from} → ${v.cycle.map((c) => c.name).join(' → ')}` : `${v.from} → ${v.to}`
    byRule.set(v.rule.name, [...(byRule.get(v.rule.name) ?? []), line])
  }
  return [...byRule].map(([rule, lines]) => `${rule}: ${advice.get(rule) ?? ''}\n  ${lines.join('\n  ')}`)
}

/** server/modules/<a> → server/modules/<b> edges (tests aside), and every cycle among them. */
function moduleCycles(result: CruiseResult): string[] {
  const unit = (file: string) => /^server\/(modules\/[^/]+|use-cases)\//.exec(file)?.[1]
  const edges = new Map<string, Set<string>>()
  for (const m of result.modules) {
    const from = unit(m.source)
    if (!from || isTest(m.source)) continue
    for (const d of m.dependencies) {
      const to = unit(d.resolved)
      if (!to || to === from || d.dependencyTypes.includes('type-only')) continue
      edges.set(from, (edges.get(from) ?? new Set()).add(to))
    }
  }
  const cycles = new Set<string>()
  const walk = (node: string, trail: string[]) => {
    const at = trail.indexOf(node)
    if (at >= 0) {
      const loop = trail.slice(at)
      const start = loop.indexOf([...loop].sort()[0]!)
      cycles.add([...loop.slice(start), ...loop.slice(0, start), loop[start]].join(' → '))
      return
    }
    for (const next of edges.get(node) ?? []) walk(next, [...trail, node])
  }
  for (const node of edges.keys()) walk(node, [])
  return [...cycles].map(
    (c) =>
      `module cycle: ${c}\n  Turn one call around: move the shared piece down (shared/, the lower module) or put the ` +
      'workflow in a use case (server/use-cases/) that calls both doors.',
  )
}

/** Raw SQL in a module's files that names a table another module owns (imports are checked by the rules). */
function foreignTablesInSql(): string[] {
  const schemaDir = path.join(root, 'server/db/schema')
  const owner = new Map<string, string>()
  for (const file of fs.readdirSync(schemaDir)) {
    const text = fs.readFileSync(path.join(schemaDir, file), 'utf8')
    for (const m of text.matchAll(/pgTable\(\s*'(\w+)'/g)) owner.set(m[1]!, file.replace(/\.ts$/, ''))
  }
  const findings = new Set<string>()
  const modulesDir = path.join(root, 'server/modules')
  for (const mod of fs.readdirSync(modulesDir)) {
    for (const file of fs.readdirSync(path.join(modulesDir, mod), { recursive: true }) as string[]) {
      const rel = `server/modules/${mod}/${file}`
      if (!rel.endsWith('.ts') || isTest(rel)) continue
      const code = fs
        .readFileSync(path.join(root, rel), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/[^\n]*/g, '')
      for (const m of code.matchAll(/\b(?:from|join|into|update)\s+"?([a-z_]+)"?(?=[\s,;)`]|$)/gi)) {
        const table = m[1]!.toLowerCase()
        const tableOwner = owner.get(table)
        if (tableOwner && tableOwner !== mod)
          findings.add(
            `${rel}: SQL names the table ${table}, which belongs to ${tableOwner}. ` +
              `Ask the ${tableOwner} module's service for it instead.`,
          )
      }
    }
  }
  return [...findings]
}

const result = cruise()
const findings = [...ruleFindings(result), ...moduleCycles(result), ...foreignTablesInSql()]
if (findings.length > 0) {
  console.error(findings.join('\n\n'))
  console.error(`\n✖ ${findings.length} architecture finding(s); docs/architecture.md explains the rules.`)
  process.exit(1)
}
console.log(`architecture: ${result.modules.length} files, no rule broken, no module cycle, no foreign table in SQL`)
