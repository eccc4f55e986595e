// What one setting costs (issue 11 §3, issue 12 §7): the same hot read on servers started alike but for that
// setting, in alternating rounds so a noisy neighbour weighs on every side alike; medians of BENCH_SETTING_ROUNDS
// (5). Two figures: req/s (what the machine gave each side) and the servers' CPU time per request (what each request
// cost, threads included). A third server, started exactly as the `off` one, gives the noise floor of the same run:
// on these 2 shared cores two identical servers differ by several per cent, which a cost must exceed to be read.
// Used by bench/run.ts for the access log (ACCESS_LOG=all against off, capped and every line) and the general rate limit (on against off);
// the figures go in docs/performance.md.
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
  /** The same two shares between two `off` servers: what this run cannot tell from nothing. */
  noise: { rps: number; cpu: number }
}

const ROUNDS = Number(process.env.BENCH_SETTING_ROUNDS ?? 5)
type Side = 'on' | 'off' | 'twin'

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
  const rps: Record<Side, number[]> = { on: [], off: [], twin: [] }
  const cpu: Record<Side, number[]> = { on: [], off: [], twin: [] }
  const start = (side: Side, env: Record<string, string>) =>
    startServer({ name: `zixue-bench-${setting.name}-${side}`, logToFile: true, env })
  const servers = { on: await start('on', setting.on), off: await start('off', setting.off) }
  const twin = await start('twin', setting.off)
  const all = { ...servers, twin }
  try {
    const run = async (side: Side, duration: number) => {
      const pid = all[side].child.pid!
      const before = cpuMs(pid)
      const result = await autocannon({
        url: all[side].baseUrl + url,
        connections,
        duration,
        headers: { 'accept-encoding': 'identity' },
      })
      return {
        rps: result.requests.average,
        cpuUs: ((cpuMs(pid) - before) * 1000) / Math.max(1, result.requests.total),
      }
    }
    for (const side of ['on', 'off', 'twin'] as const) await run(side, 2)
    const orders: Side[][] = [
      ['on', 'off', 'twin'],
      ['twin', 'off', 'on'],
      ['off', 'on', 'twin'],
    ]
    for (let round = 0; round < ROUNDS; round++)
      for (const side of orders[round % orders.length]!) {
        const line = await run(side, seconds)
        rps[side].push(line.rps)
        cpu[side].push(line.cpuUs)
      }
  } finally {
    await Promise.all(Object.values(all).map((server) => server.stop()))
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const rpsOf = (side: Side) => Math.round(median(rps[side]))
  const cpuOf = (side: Side) => Math.round(median(cpu[side]))
  const share = (x: number) => Math.round(x * 1000) / 1000
  const [rpsOn, rpsOff, cpuOn, cpuOff] = [rpsOf('on'), rpsOf('off'), cpuOf('on'), cpuOf('off')]
  return {
    url,
    rpsOn,
    rpsOff,
    cost: share(1 - rpsOn / rpsOff),
    cpuOn,
    cpuOff,
    cpuCost: share(1 - cpuOff / cpuOn),
    noise: { rps: share(Math.abs(1 - rpsOf('twin') / rpsOff)), cpu: share(Math.abs(1 - cpuOff / cpuOf('twin'))) },
  }
}
/**
 * The access log as deployed (`all`, at most ACCESS_LOG_PER_SECOND's default of 100 lines a second, then a count),
 * written to a file like a real deployment's collected stdout, against none.
 */
export const accessLog: Setting = {
  name: 'log',
  on: { LOG_LEVEL: 'info', ACCESS_LOG: 'all' },
  off: { LOG_LEVEL: 'info', ACCESS_LOG: 'off' },
}

/** One line for every request, however many a second (`ACCESS_LOG_PER_SECOND=0`), against none. */
export const accessLogEveryLine: Setting = {
  name: 'log-every',
  on: { LOG_LEVEL: 'info', ACCESS_LOG: 'all', ACCESS_LOG_PER_SECOND: '0' },
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
