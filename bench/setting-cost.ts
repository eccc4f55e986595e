// What one setting costs (issue 11 §3, issue 12 §7): the same hot read on two servers started alike but for that
// setting, in alternating rounds so a noisy neighbour weighs on both sides alike; medians of three. Used by
// bench/run.ts for the access log (ACCESS_LOG=all against off) and the general rate limit (on against off); the
// figures go in docs/performance.md.
import autocannon from 'autocannon'
import { startServer } from '#tests/support/spawn-server.ts'

export interface SettingCost {
  url: string
  rpsOn: number
  rpsOff: number
  /** 1 − on/off: the share of throughput the setting costs. */
  cost: number
}

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
  const servers = {
    on: await startServer({ name: `zixue-bench-${setting.name}-on`, logToFile: true, env: setting.on }),
    off: await startServer({ name: `zixue-bench-${setting.name}-off`, logToFile: true, env: setting.off }),
  }
  try {
    const run = async (side: 'on' | 'off', duration: number) =>
      autocannon({
        url: servers[side].baseUrl + url,
        connections,
        duration,
        headers: { 'accept-encoding': 'identity' },
      })
    await run('on', 2)
    await run('off', 2)
    for (let round = 0; round < 3; round++)
      for (const side of ['on', 'off'] as const) rps[side].push((await run(side, seconds)).requests.average)
  } finally {
    await servers.on.stop()
    await servers.off.stop()
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!
  const rpsOn = Math.round(median(rps.on))
  const rpsOff = Math.round(median(rps.off))
  return { url, rpsOn, rpsOff, cost: Math.round((1 - rpsOn / rpsOff) * 1000) / 1000 }
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
