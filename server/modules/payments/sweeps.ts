import type { FastifyBaseLogger } from 'fastify'
import type { Services } from '#server/services.ts'
import { withTryLock } from './payments.repository.ts'

/** Advisory lock id of the payment sweeps: one process runs them at a time. */
const SWEEP_LOCK = 727_401

/**
 * One round of the payment sweeps, if no other process is running one: close expired orders (at the provider
 * first), ask the provider about orders whose notification is overdue, send refunds that wait, forget old
 * idempotency keys. Returns null when another process holds the lock.
 */
export async function runPaymentSweeps(services: Services) {
  return withTryLock(services.db, SWEEP_LOCK, async () => {
    const closed = await services.payments.closeExpired()
    const reconciled = await services.payments.reconcilePending()
    const refunds = await services.payments.sendPendingRefunds()
    await services.payments.pruneIdempotencyKeys()
    return { closed, reconciled, refunds }
  })
}

/**
 * Runs the sweeps every `intervalMs` in this process (server/main.ts), the first time right after boot so that a
 * restart after a crash catches up at once. `stop()` waits for a running round.
 */
export function startPaymentSweeps(services: Services, log: FastifyBaseLogger, intervalMs = services.config.payments.sweepIntervalMs) {
  let running: Promise<void> | null = null
  let stopped = false
  const tick = () => {
    if (running || stopped) return
    running = runPaymentSweeps(services)
      .then((r) => {
        if (r && r.closed + r.reconciled + r.refunds > 0) log.info(r, 'payment sweep')
      })
      .catch((err: unknown) => log.error({ err }, 'payment sweep failed'))
      .finally(() => {
        running = null
      })
  }
  const timer = setInterval(tick, intervalMs)
  timer.unref()
  tick()
  return {
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}
