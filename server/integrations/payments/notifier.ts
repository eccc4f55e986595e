/**
 * How the simulators deliver notifications: POST at once, and after a failed answer (or none) again after each
 * delay in turn, then give up, as the providers do (WeChat Pay: 15 s, 15 s, 30 s, 3 min … over 24 h; Alipay:
 * 4 min, 10 min … over 25 h). The delays are shorter here so that the demo and the tests see retries.
 */

export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000] as const

export interface Delivery {
  id: string
  url: string
  attempts: number
  delivered: boolean
  gaveUp: boolean
  lastStatus: number | null
}

export interface NotifierOptions {
  fetch: typeof globalThis.fetch
  retryDelaysMs: readonly number[]
  timeoutMs?: number
}

export interface Notifier {
  /** Sends a notification; `build` makes the request for each attempt (signatures carry the attempt's time). */
  send(
    id: string,
    url: string,
    build: () => { headers: Record<string, string>; body: string },
    accepted: (status: number, body: string) => boolean,
  ): Delivery
  deliveries: Delivery[]
  /** Resolves when nothing is waiting for a retry or in flight. */
  idle(): Promise<void>
  close(): void
}

export function createNotifier(options: NotifierOptions): Notifier {
  const timers = new Set<NodeJS.Timeout>()
  const inFlight = new Set<Promise<void>>()
  const deliveries: Delivery[] = []
  let closed = false

  function attempt(
    d: Delivery,
    build: () => { headers: Record<string, string>; body: string },
    accepted: (status: number, body: string) => boolean,
  ) {
    if (closed) return
    d.attempts++
    const { headers, body } = build()
    const run = (async () => {
      try {
        const res = await options.fetch(d.url, {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
        })
        const text = await res.text()
        d.lastStatus = res.status
        d.delivered = accepted(res.status, text)
      } catch {
        d.lastStatus = null
      }
      if (d.delivered || closed) return
      const delay = options.retryDelaysMs[d.attempts - 1]
      if (delay === undefined) {
        d.gaveUp = true
        return
      }
      const timer = setTimeout(() => {
        timers.delete(timer)
        attempt(d, build, accepted)
      }, delay)
      timer.unref()
      timers.add(timer)
    })()
    inFlight.add(run)
    void run.finally(() => inFlight.delete(run))
  }

  return {
    deliveries,
    send(id, url, build, accepted) {
      const d: Delivery = { id, url, attempts: 0, delivered: false, gaveUp: false, lastStatus: null }
      deliveries.push(d)
      if (deliveries.length > 1000) deliveries.splice(0, deliveries.length - 1000)
      attempt(d, build, accepted)
      return d
    },
    async idle() {
      while (inFlight.size > 0 || timers.size > 0) {
        await Promise.race([...inFlight, new Promise((r) => setTimeout(r, 10))])
      }
    },
    close() {
      closed = true
      for (const t of timers) clearTimeout(t)
      timers.clear()
    },
  }
}
