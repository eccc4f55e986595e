// `node bench/lantern.ts <artifacts dir> [--low <regexp>] [--drop <regexp>]`: where Lighthouse's simulated first
// and largest contentful paint come from, and what they would be if some requests went otherwise. Lighthouse's
// mobile score does not time the page: Lantern (its simulator) rebuilds the load from the observed one at 150 ms
// RTT and 1.6 Mbit/s and keeps, for FCP, the requests of high priority (any VeryHigh, High scripts) that ended
// before the observed first paint, and for LCP nearly everything that ended before the observed largest paint.
// Which requests those are decides FCP, and run-to-run noise hides it; this reads one saved run and answers
// deterministically, in milliseconds.
//
// The artifacts come from `LIGHTHOUSE_ARTIFACTS=1 npm run bench:lighthouse` (bench/results/lighthouse/artifacts/
// <page>-<run>/: the trace and the DevTools log). What-ifs rewrite the saved DevTools log before simulating:
//   --low <regexp>   the requests whose URL matches load at Low priority (as `fetchpriority="low"` would make them)
//   --drop <regexp>  the requests whose URL matches are not made (an inlined stylesheet, a removed preload)
// The observed paints stay those of the saved run, so a what-if that would move the real first paint is only
// approximated (docs/performance.md, "Lighthouse": what the what-ifs showed and where they misled).
import { parseArgs } from 'node:util'
import { Audit } from 'lighthouse/core/audits/audit.js'
import { LanternFirstContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-first-contentful-paint.js'
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js'
import { defaultSettings } from 'lighthouse/core/config/constants.js'
import { loadArtifacts } from 'lighthouse/core/lib/asset-saver.js'

interface LogEntry {
  method: string
  params: {
    requestId?: string
    timestamp?: number
    request?: { url: string; initialPriority?: string }
    newPriority?: string
  }
}
interface SimNode {
  type: 'network' | 'cpu'
  duration: number
  request: { url: string; priority: string; resourceType: string; transferSize: number }
}
interface Estimate {
  timeInMs: number
  nodeTimings: Map<SimNode, { startTime: number; endTime: number }>
}
interface MetricResult {
  timing: number
  optimisticEstimate: Estimate
  pessimisticEstimate: Estimate
}
type Computed = { request: (data: unknown, context: unknown) => Promise<MetricResult> }

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { low: { type: 'string' }, drop: { type: 'string' } },
})
const dir = positionals[0]
if (!dir) throw new Error('usage: node bench/lantern.ts <artifacts dir> [--low <regexp>] [--drop <regexp>]')
const low = values.low ? new RegExp(values.low) : null
const drop = values.drop ? new RegExp(values.drop) : null

const artifacts = (await loadArtifacts(dir)) as unknown as {
  traces: { defaultPass: unknown }
  devtoolsLogs: { defaultPass: LogEntry[] }
  GatherContext: unknown
  URL: unknown
  settings?: object
}
const log = whatIf(artifacts.devtoolsLogs.defaultPass)
// The settings the run was gathered with, over Lighthouse's defaults (mobile, simulated throttling).
const settings: object = { ...(defaultSettings as object), ...artifacts.settings }
const data = {
  trace: artifacts.traces.defaultPass,
  devtoolsLog: log,
  gatherContext: artifacts.GatherContext,
  settings,
  URL: artifacts.URL,
  simulator: null,
}
const context = { computedCache: new Map<string, unknown>(), settings }
const fcp = await (LanternFirstContentfulPaint as unknown as Computed).request(data, context)
const lcp = await (LanternLargestContentfulPaint as unknown as Computed).request(data, context)

// Lighthouse 12's mobile curves and weights: FCP 10 %, LCP 25 % of the score.
const fcpScore = Audit.computeLogNormalScore({ p10: 1800, median: 3000 }, fcp.timing)
const lcpScore = Audit.computeLogNormalScore({ p10: 2500, median: 4000 }, lcp.timing)
console.log(
  `FCP ${Math.round(fcp.timing)} ms (score ${fcpScore.toFixed(2)})   LCP ${Math.round(lcp.timing)} ms ` +
    `(score ${lcpScore.toFixed(2)})   FCP and LCP give ${(fcpScore * 10 + lcpScore * 25).toFixed(1)} of their 35 points`,
)
printGraph('FCP, pessimistic graph', fcp.pessimisticEstimate)
printGraph('LCP, pessimistic graph', lcp.pessimisticEstimate)

/** The saved DevTools log with the what-ifs applied (a copy: the artifacts stay as saved). */
function whatIf(entries: LogEntry[]): LogEntry[] {
  const urls = new Map<string, string>()
  for (const e of entries)
    if (e.method === 'Network.requestWillBeSent' && e.params.requestId && e.params.request)
      urls.set(e.params.requestId, e.params.request.url)
  const matches = (re: RegExp | null, e: LogEntry) =>
    !!re && !!e.params.requestId && re.test(urls.get(e.params.requestId) ?? '')
  return entries
    .filter((e) => !matches(drop, e))
    .map((e) => {
      if (!matches(low, e)) return e
      if (e.method === 'Network.requestWillBeSent' && e.params.request)
        return { ...e, params: { ...e.params, request: { ...e.params.request, initialPriority: 'Low' } } }
      if (e.method === 'Network.resourceChangedPriority') return { ...e, params: { ...e.params, newPriority: 'Low' } }
      return e
    })
}

/** The simulated start and end of every request and CPU task on a graph, in start order. */
function printGraph(title: string, estimate: Estimate) {
  console.log(`\n${title} (${Math.round(estimate.timeInMs)} ms):`)
  const rows = [...estimate.nodeTimings].toSorted(([, a], [, b]) => a.startTime - b.startTime || a.endTime - b.endTime)
  for (const [node, t] of rows) {
    const what =
      node.type === 'network'
        ? `${node.request.priority} ${node.request.resourceType} ${new URL(node.request.url).pathname} ` +
          `(${(node.request.transferSize / 1024).toFixed(1)} KB)`
        : `main thread, ${(node.duration / 1000).toFixed(1)} ms observed`
    console.log(`  ${String(Math.round(t.startTime)).padStart(5)}–${String(Math.round(t.endTime)).padEnd(5)} ${what}`)
  }
}
