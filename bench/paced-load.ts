// An open-loop load: requests leave at a steady rate whatever the server does, over a pool of keep-alive
// connections, and each one's latency counts from when it was due to leave (a request waiting for a free connection
// is late by that wait, so a saturated server shows as such). autocannon's closed loop keeps every connection busy,
// so at 50 connections its latency is 50 ÷ throughput whatever a request costs; its `overallRate` is a per-second
// budget each connection spends at once, i.e. bursts of the same closed loop. Used by bench/scale.ts (BENCH_RATE).
import http from 'node:http'

export interface PacedResult {
  /** Requests answered per second over the run. */
  rps: number
  p50: number
  p99: number
  /** Failed requests and answers other than 2xx. */
  errors: number
  /** The 99th percentile of how late this process sent a request (its own pauses), in ms. */
  sendLateP99: number
}

/** The `p` quantile (0–1) of sorted latencies, in ms. */
function quantile(sorted: Float64Array, p: number) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
}

export async function pacedLoad(options: {
  base: string
  connections: number
  /** Requests a second, in all. */
  rate: number
  /** Seconds. */
  duration: number
  next: () => { path: string; headers?: Record<string, string> }
}): Promise<PacedResult> {
  const { base, connections, rate, duration, next } = options
  const url = new URL(base)
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
  const latencies = new Float64Array(Math.ceil(rate * duration) + 1)
  const lateness = new Float64Array(Math.ceil(rate * duration) + 1)
  let answered = 0
  let errors = 0
  let sent = 0
  const total = Math.floor(rate * duration)
  const started = performance.now()

  const send = (dueAt: number) =>
    new Promise<void>((resolve) => {
      const { path, headers } = next()
      const request = http.request(
        { host: url.hostname, port: url.port, path, agent, headers: { 'accept-encoding': 'identity', ...headers } },
        (response) => {
          response.resume()
          response.on('end', () => {
            latencies[answered++] = performance.now() - dueAt
            if ((response.statusCode ?? 0) >= 300) errors++
            resolve()
          })
        },
      )
      request.on('error', () => {
        errors++
        resolve()
      })
      request.end()
    })

  const inFlight: Promise<void>[] = []
  await new Promise<void>((done) => {
    // Every millisecond, send what is due by now: request i is due at i ÷ rate seconds after the start.
    const timer = setInterval(() => {
      const now = performance.now()
      while (sent < total && started + (sent * 1000) / rate <= now) {
        const dueAt = started + (sent * 1000) / rate
        lateness[sent] = now - dueAt
        inFlight.push(send(dueAt))
        sent++
      }
      if (sent >= total) {
        clearInterval(timer)
        done()
      }
    }, 1)
  })
  await Promise.all(inFlight)
  const elapsed = (performance.now() - started) / 1000
  agent.destroy()
  const sorted = latencies.slice(0, answered).sort()
  return {
    rps: Math.round(answered / elapsed),
    p50: Math.round(quantile(sorted, 0.5)),
    p99: Math.round(quantile(sorted, 0.99)),
    errors,
    sendLateP99: Math.round(quantile(lateness.slice(0, sent).sort(), 0.99)),
  }
}
