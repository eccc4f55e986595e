// `node bench/long-tasks.ts <artifacts dir> [--min <ms>] [--top <n>]`: what runs in a saved Lighthouse run's long
// tasks. Lighthouse's Total Blocking Time is Lantern's: each main-thread task it observed, its duration multiplied by
// the 4× CPU slowdown of the mobile settings, counts for what it lasts beyond 50 ms. So a task that took 12.5 ms on
// this machine already blocks. This lists the page's top-level tasks above --min observed ms (12.5), with the
// functions their time was spent in: V8's samples inside each task (the trace has them when the run was made with
// LIGHTHOUSE_ARTIFACTS=1 LIGHTHOUSE_PROFILE=1, which adds V8's sampling profiler to Lighthouse's trace),
// attributed to the original source through the build's source maps when the build has them
// (ZX_SOURCEMAP=1 npx react-router build).
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping'

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { min: { type: 'string', default: '12.5' }, top: { type: 'string', default: '8' } },
})
const dir = positionals[0]
if (!dir) throw new Error('usage: node bench/long-tasks.ts <artifacts dir> [--min <ms>] [--top <n>]')
const minUs = Number(values.min) * 1000
const topN = Number(values.top)
const SLOWDOWN = 4

interface TraceEvent {
  name: string
  ph: string
  pid: number
  tid: number
  ts: number
  dur?: number
  id?: string
  args: {
    name?: string
    data?: {
      startTime?: number
      timeDeltas?: number[]
      cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }
      url?: string
    }
  }
}
interface ProfileNode {
  id: number
  parent?: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
}

const trace = JSON.parse(fs.readFileSync(path.join(dir, 'defaultPass.trace.json'), 'utf8')) as
  { traceEvents: TraceEvent[] } | TraceEvent[]
const events = Array.isArray(trace) ? trace : trace.traceEvents

// The page's main thread: the renderer main thread that ran the page's scripts (Lighthouse's trace also has
// other renderers, such as the blank page it starts from).
const mains = events.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain')
const pageScripts = (pid: number, tid: number) =>
  events.filter(
    (e) => e.pid === pid && e.tid === tid && e.name === 'EvaluateScript' && /^https?:/.test(e.args.data?.url ?? ''),
  ).length
const main = mains
  .map((m) => ({
    pid: m.pid,
    tid: m.tid,
    scripts: pageScripts(m.pid, m.tid),
    tasks: events.filter((e) => e.pid === m.pid && e.tid === m.tid && e.ph === 'X' && e.name === 'RunTask'),
  }))
  .sort((a, b) => b.scripts - a.scripts)[0]
if (!main) throw new Error('no renderer main thread in the trace')

// V8's samples on that thread: a Profile event, then ProfileChunks with the new nodes and the samples' time deltas.
const nodes = new Map<number, ProfileNode>()
const samples: { ts: number; node: number }[] = []
const profile = events.find((e) => e.name === 'Profile' && e.pid === main.pid && e.tid === main.tid)
if (profile) {
  let ts = profile.args.data?.startTime ?? profile.ts
  for (const chunk of events.filter((e) => e.name === 'ProfileChunk' && e.pid === profile.pid && e.id === profile.id)) {
    for (const n of chunk.args.data?.cpuProfile?.nodes ?? []) nodes.set(n.id, n)
    const ids = chunk.args.data?.cpuProfile?.samples ?? []
    const deltas = chunk.args.data?.timeDeltas ?? []
    ids.forEach((node, i) => {
      ts += deltas[i] ?? 0
      samples.push({ ts, node })
    })
  }
}

// The build's source maps, from the script URLs' paths (/assets/x.js → build/client/assets/x.js.map).
const maps = new Map<string, TraceMap | null>()
function mapFor(url: string) {
  if (!maps.has(url)) {
    const file = path.join('build/client', new URL(url).pathname + '.map')
    maps.set(url, fs.existsSync(file) ? new TraceMap(fs.readFileSync(file, 'utf8')) : null)
  }
  return maps.get(url)
}
function where(node: ProfileNode) {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame
  const name = functionName || '(anonymous)'
  if (!url) return name
  const map = url.startsWith('http') ? mapFor(url) : null
  const at = map && originalPositionFor(map, { line: lineNumber + 1, column: columnNumber })
  if (!at?.source) return `${name} ${url.startsWith('http') ? new URL(url).pathname : url}`
  return `${at.name ?? name} ${at.source.replace(/^.*node_modules\//, '').replace(/^.*?\/app\//, 'app/')}:${at.line}`
}
/** A sample's function: the app's own frame nearest the top of the stack if there is one, else the leaf. */
function attribute(id: number) {
  const leaf = nodes.get(id)
  if (!leaf) return '(unknown)'
  for (let n: ProfileNode | undefined = leaf; n; n = n.parent === undefined ? undefined : nodes.get(n.parent)) {
    const w = where(n)
    if (/ app\//.test(w)) return w
  }
  return where(leaf)
}

const start = Math.min(...main.tasks.map((t) => t.ts))
const long = main.tasks.filter((t) => (t.dur ?? 0) >= minUs).sort((a, b) => a.ts - b.ts)
let blocking = 0
for (const task of long) {
  const dur = (task.dur ?? 0) / 1000
  const simulated = dur * SLOWDOWN
  blocking += Math.max(0, simulated - 50)
  console.log(
    `task at ${((task.ts - start) / 1000).toFixed(0)} ms: ${dur.toFixed(1)} ms observed, ` +
      `~${simulated.toFixed(0)} ms at ${SLOWDOWN}× (blocks ${Math.max(0, simulated - 50).toFixed(0)} ms)`,
  )
  const inside = samples.filter((s) => s.ts >= task.ts && s.ts <= task.ts + (task.dur ?? 0))
  const byFunction = new Map<string, number>()
  for (let i = 0; i < inside.length; i++) {
    const next = inside[i + 1]?.ts ?? task.ts + (task.dur ?? 0)
    const key = attribute(inside[i]!.node)
    byFunction.set(key, (byFunction.get(key) ?? 0) + (next - inside[i]!.ts) / 1000)
  }
  for (const [key, ms] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, topN))
    console.log(`  ${ms.toFixed(1).padStart(6)} ms  ${key}`)
}
console.log(
  `${long.length} tasks of ${values.min} ms or more; blocking beyond 50 ms at ${SLOWDOWN}×, all tasks counted: ` +
    `${blocking.toFixed(0)} ms (Lighthouse counts only those after the first contentful paint)` +
    (profile ? '' : '; the trace has no V8 samples (run with LIGHTHOUSE_ARTIFACTS=1 LIGHTHOUSE_PROFILE=1)'),
)
