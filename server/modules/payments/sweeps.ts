import type { FastifyBaseLogger } from 'fastify'
import { every } from '#server/jobs/every.ts'

/** Advisory lock id of the payment sweeps: one process runs them at a time. */
const SWEEP_LOCK = 727_401

interface SweepDeps {
  /** The sweep steps (the use cases, bound by the composition root) and the advisory lock. */
  payments: {
    /** Runs `fn` under the advisory lock `key`; null when another process holds it. */
    withTryLock: <T>(key: number, fn: () => Promise<T>) => Promise<T | null>
    /** Each step answers how many orders or refunds it moved. */
    closeExpired: () => Promise<number>
    reconcilePending: () => Promise<number>
    sendPendingRefunds: () => Promise<number>
    pruneIdempotencyKeys: () => Promise<unknown>
  }
}

/**
 * One round of the payment sweeps, if no other process is running one: close expired orders (at the provider
 * first), ask the provider about orders whose notification is overdue, send refunds that wait, forget old
 * idempotency keys. Returns null when another process holds the lock.
 */
export async function runPaymentSweeps({ payments }: SweepDeps) {
  return payments.withTryLock(SWEEP_LOCK, async () => {
    const closed = await payments.closeExpired()
    const reconciled = await payments.reconcilePending()
    const refunds = await payments.sendPendingRefunds()
    await payments.pruneIdempotencyKeys()
    return { closed, reconciled, refunds }
  })
}

/**
 * Runs the sweeps every `intervalMs` (config.payments.sweepIntervalMs) in this process (server/main.ts), the first
 * time right after boot so that a restart after a crash catches up at once. `stop()` waits for a running round.
 */
export function startPaymentSweeps(deps: SweepDeps, log: FastifyBaseLogger, intervalMs: number) {
  return every(
    intervalMs,
    async () => {
      const r = await runPaymentSweeps(deps)
      if (r && r.closed + r.reconciled + r.refunds > 0) log.info(r, 'payment sweep')
    },
    (err) => log.error({ err }, 'payment sweep failed'),
  )
}
