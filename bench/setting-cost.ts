// What one setting costs (issue 11 §3, issue 12 §7): the same hot read on two servers started alike but for that
// setting, in alternating rounds so a noisy neighbour weighs on both sides alike; medians of five. Two figures: req/s
// (what the machine gave each side) and the servers' CPU time per request (what each request cost, threads included,
// which the load generator and other work on these 2 cores do not move). Used by
// bench/run.ts for the access log (ACCESS_LOG=all against off) and the general rate limit (on against off); the
// figures go in docs/performance.md.
import autocannon from 'autocannon'
import { startServer } from '#tests/support/spawn-server.ts'
import { cpuMs } from './process-cpu.ts'

export interface SettingCost {
  url: string
  rpsOn: number
  rpsOff: number
  /** 1 − on/off: the share of throughput the setting costs. */
  cost: number
  /** Server CPU time per request, µs. */
  cpuOn: number
  cpuOff: number
  /** 1 − cpuOff/cpuOn: the share of a CPU-bound server's throughput the setting costs. */
  cpuCost: number
}

const ROUNDS = 5

export interface Setting {
  /** A short name for the servers' folders. */
  name: string
  on: Record<string, string>
  off: Record<string, string>
}

export async function measureSettingCost(
  setting: Setting,
  url: string,
  seconds: number,
  connections: number,
): Promise<SettingCost> {
  const rps: Record<'on' | 'off', number[]> = { on: [], off: [] }
  const cpu: Record<'on' | 'off', number[]> = { on: [], off: [] }
  const servers = {
    on: await startServer({ name: `zixue-bench-${setting.name}-on`, logToFile: true, env: setting.on }),
    off: await startServer({ name: `zixue-bench-${setting.name}-off`, logToFile: true, env: setting.off }),
  }
  try {
    const run = async (side: 'on' | 'off', duration: number) => {
      const pid = servers[side].child.pid!
      const before = cpuMs(pid)
      const result = await autocannon({
        url: servers[side].baseUrl + url,
        connections,
        duration,
        headers: { 'accept-encoding': 'identity' },
      })
      return {
        rps: result.requests.average,
        cpuUs: ((cpuMs(pid) - before) * 1000) / Math.max(1, result.requests.total),
      }
    }
    await run('on', 2)
    await run('off', 2)
    for (let round = 0; round < ROUNDS; round++)
      for (const side of round % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        const line = await run(side, seconds)
        rps[side].push(line.rps)
        cpu[side].push(line.cpuUs)
      }
  } finally {
    await servers.on.stop()
    await servers.off.stop()
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const rpsOn = Math.round(median(rps.on))
  const rpsOff = Math.round(median(rps.off))
  const cpuOn = Math.round(median(cpu.on))
  const cpuOff = Math.round(median(cpu.off))
  const share = (x: number) => Math.round(x * 1000) / 1000
  return { url, rpsOn, rpsOff, cost: share(1 - rpsOn / rpsOff), cpuOn, cpuOff, cpuCost: share(1 - cpuOff / cpuOn) }
}

/** One line per request at `info`, written to a file like a real deployment's collected stdout, against none. */
export const accessLog: Setting = {
  name: 'log',
  on: { LOG_LEVEL: 'info', ACCESS_LOG: 'all' },
  off: { LOG_LEVEL: 'info', ACCESS_LOG: 'off' },
}

/**
 * The general rate limit counting every request in its shared store, with a ceiling the bench never reaches (one
 * address sends everything here), against no limit.
 */
export const rateLimit: Setting = {
  name: 'ratelimit',
  on: { RATE_LIMIT: 'true', RATE_LIMIT_PER_MINUTE: '100000000' },
  off: { RATE_LIMIT: 'false' },
}
