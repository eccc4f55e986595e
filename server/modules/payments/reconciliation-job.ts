import type { FastifyBaseLogger } from 'fastify'
import { every } from '#server/jobs/every.ts'

/** Advisory lock id of the daily reconciliation: one process runs it at a time. */
const RECONCILE_LOCK = 727_402
/** How often the job looks for a day whose bills are ready and not reconciled yet. */
const CHECK_EVERY_MS = 3600_000

interface ReconciliationDeps {
  payments: {
    /** Runs `fn` under the advisory lock `key`; null when another process holds it. */
    withTryLock: <T>(key: number, fn: () => Promise<T>) => Promise<T | null>
    /** The reconcile-bills use case over the days that are due (server/use-cases/reconcile-bills.ts). */
    reconcileDueDays: () => Promise<{ provider: string; bill_date: string; state: string; differences: number }[]>
  }
}

/** One round: every provider's bills of the past days that are ready and not reconciled; null when locked out. */
export function runDailyReconciliation({ payments }: ReconciliationDeps) {
  return payments.withTryLock(RECONCILE_LOCK, () => payments.reconcileDueDays())
}

/**
 * The daily reconciliation in this process (server/main.ts, with the payment sweeps): every hour, and right after
 * boot, it compares the providers' bills of the days that are ready (the next morning) and not done yet with our
 * payments, and records the differences for staff (GET /api/admin/reconciliation/differences). A bill not ready
 * yet is tried again the next hour. `stop()` waits for a running round.
 */
export function startDailyReconciliation(
  deps: ReconciliationDeps,
  log: FastifyBaseLogger,
  intervalMs = CHECK_EVERY_MS,
) {
  return every(
    intervalMs,
    async () => {
      for (const run of (await runDailyReconciliation(deps)) ?? []) {
        const line = { provider: run.provider, bill_date: run.bill_date, differences: run.differences }
        if (run.state === 'done' && run.differences > 0) log.warn(line, 'reconciliation found differences')
        else if (run.state === 'done') log.info(line, 'reconciliation matched')
        else log.warn(line, 'reconciliation could not get the bill; trying again later')
      }
    },
    (err) => log.error({ err }, 'reconciliation failed'),
  )
}
