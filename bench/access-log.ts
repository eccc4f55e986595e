// The cost of the access log (issue 11, section 3): the same hot read on two servers started alike, one writing a
// line per request at `info` (ACCESS_LOG=all, into a file like a real deployment's collected stdout), one with
// ACCESS_LOG=off. Used by bench/run.ts; the figure goes in docs/performance.md.
import autocannon from 'autocannon'
import { startServer } from '#tests/support/spawn-server.ts'

export interface AccessLogCost {
  url: string
  rpsLogged: number
  rpsOff: number
  /** 1 − logged/off: the share of throughput the log costs (goal ≤ 0.05). */
  cost: number
}

export async function measureAccessLogCost(url: string, seconds: number, connections: number): Promise<AccessLogCost> {
  const rps: Record<'all' | 'off', number[]> = { all: [], off: [] }
  const servers = {
    all: await startServer({ name: 'zixue-bench-log', logToFile: true, env: { LOG_LEVEL: 'info', ACCESS_LOG: 'all' } }),
    off: await startServer({
      name: 'zixue-bench-nolog',
      logToFile: true,
      env: { LOG_LEVEL: 'info', ACCESS_LOG: 'off' },
    }),
  }
  try {
    const run = async (mode: 'all' | 'off', duration: number) =>
      autocannon({
        url: servers[mode].baseUrl + url,
        connections,
        duration,
        headers: { 'accept-encoding': 'identity' },
      })
    await run('all', 2)
    await run('off', 2)
    // Alternating rounds, so that a noisy neighbour on the machine weighs on both sides alike; medians of three.
    for (let round = 0; round < 3; round++)
      for (const mode of ['all', 'off'] as const) rps[mode].push((await run(mode, seconds)).requests.average)
  } finally {
    await servers.all.stop()
    await servers.off.stop()
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!
  const rpsLogged = Math.round(median(rps.all))
  const rpsOff = Math.round(median(rps.off))
  return { url, rpsLogged, rpsOff, cost: Math.round((1 - rpsLogged / rpsOff) * 1000) / 1000 }
}
