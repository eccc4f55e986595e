import type { FastifyBaseLogger } from 'fastify'
import { every } from '#server/jobs/every.ts'
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
export function startPaymentSweeps(
  services: Services,
  log: FastifyBaseLogger,
  intervalMs = services.config.payments.sweepIntervalMs,
) {
  return every(
    intervalMs,
    async () => {
      const r = await runPaymentSweeps(services)
      if (r && r.closed + r.reconciled + r.refunds > 0) log.info(r, 'payment sweep')
    },
    (err) => log.error({ err }, 'payment sweep failed'),
  )
}
