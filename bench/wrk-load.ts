// A closed-loop load by wrk (Debian's `wrk` package, written in C) when it is installed: the same loop as
// autocannon (every connection sends its next request when the last one is answered), with a fraction of the CPU.
// On this 2-core machine the load generator shares the cores with the server and PostgreSQL: autocannon spends
// about 75 µs of CPU per request and its own event-loop pauses count in the latency it measures; wrk spends about
// 27 µs (docs/performance.md, "The load generator"). BENCH_LOADGEN=autocannon keeps autocannon. Unlike autocannon,
// wrk counts only answers from 400 up as errors (not 3xx), and a request times out after 5 s (autocannon: 10 s).
import { execFile, execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export interface ClosedLoadResult {
  /** Requests answered. */
  requests: number
  rps: number
  /** Latency percentiles, in ms (wrk's histogram is in µs; rounded to 0.1 ms). */
  p50: number
  p99: number
  /** Socket errors, timeouts and answers from 400 up. */
  errors: number
}

/** Whether the read rows use wrk: installed, and not turned off by BENCH_LOADGEN=autocannon. */
export const wrkAvailable = (() => {
  if (process.env.BENCH_LOADGEN === 'autocannon') return false
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' })
    return true
  } catch (err) {
    // `wrk --version` prints its usage and exits with 1.
    return (err as { status?: number }).status === 1
  }
})()

/** The load generator the read rows use, for the benches' headers. */
export const loadGenerator = wrkAvailable ? 'wrk (1 thread)' : 'autocannon'

// Each line of the requests file is one request: the path, then its headers as name=value, tab-separated. The
// script formats them all once, then sends them in order, round and round, so a file of paths drawn at random
// is a random load and the file's order (e.g. every course once) is kept.
const script = `
local requests = {}
init = function(args)
  for line in io.lines(args[1]) do
    local fields = {}
    for field in line:gmatch("[^\\t]+") do fields[#fields + 1] = field end
    local headers = { ["accept-encoding"] = "identity" }
    for i = 2, #fields do
      local name, value = fields[i]:match("^([^=]+)=(.*)$")
      if name then headers[name] = value end
    end
    requests[#requests + 1] = wrk.format("GET", fields[1], headers)
  end
  turn = 0
end
request = function()
  turn = turn % #requests + 1
  return requests[turn]
end
done = function(summary, latency, _)
  local e = summary.errors
  io.write(string.format("ZXRESULT %d %d %d %d %d\\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(99), e.connect + e.read + e.write + e.status + e.timeout))
end
`

/**
 * Loads `base` with `requests` (sent in order, round and round) at `connections` for `duration` seconds. The list
 * should be long enough that a key does not come back within a cache's lifetime.
 */
export async function wrkLoad(options: {
  base: string
  connections: number
  duration: number
  requests: { path: string; headers?: Record<string, string> }[]
}): Promise<ClosedLoadResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-wrk-'))
  try {
    const scriptFile = path.join(dir, 'load.lua')
    const requestsFile = path.join(dir, 'requests.tsv')
    fs.writeFileSync(scriptFile, script)
    for (const r of options.requests)
      if (/[\t\n]/.test(r.path + Object.entries(r.headers ?? {}).join()))
        throw new Error(`A request for wrk has a tab or a line break: ${r.path}`)
    fs.writeFileSync(
      requestsFile,
      options.requests
        .map((r) => [r.path, ...Object.entries(r.headers ?? {}).map(([k, v]) => `${k}=${v}`)].join('\t'))
        .join('\n') + '\n',
    )
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        'wrk',
        [
          '-t1',
          `-c${options.connections}`,
          `-d${options.duration}s`,
          '--timeout',
          '5s',
          '-s',
          scriptFile,
          options.base,
          '--',
          requestsFile,
        ],
        { maxBuffer: 1 << 20 },
        (err, out) => (err ? reject(new Error(`wrk failed: ${err.message}`, { cause: err })) : resolve(out)),
      ),
    )
    const line = stdout.split('\n').find((l) => l.startsWith('ZXRESULT '))
    if (!line) throw new Error(`wrk printed no result:\n${stdout}`)
    const [requests, durationUs, p50Us, p99Us, errors] = line.split(' ').slice(1).map(Number) as [
      number,
      number,
      number,
      number,
      number,
    ]
    const ms = (us: number) => Math.round(us / 100) / 10
    return { requests, rps: Math.round(requests / (durationUs / 1e6)), p50: ms(p50Us), p99: ms(p99Us), errors }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
