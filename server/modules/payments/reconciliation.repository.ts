import { and, eq, gte, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { eqIfGiven, newestFirst, upsert } from '#server/db/rows.ts'
import type { ProviderName as PaymentProviderName } from '#server/integrations/payments/payments.ts'
import {
  paymentNotifications,
  reconciliationDifferences,
  reconciliationRuns,
  type NotificationOutcome,
  type ReconciliationKind,
} from '#server/db/schema/payments.ts'

export type RunRow = typeof reconciliationRuns.$inferSelect
export type NewDifference = Omit<typeof reconciliationDifferences.$inferInsert, 'id' | 'runId'>

/** The days of `provider` from `from` (yyyy-MM-dd) on whose reconciliation is done. */
export async function doneDays(db: DbOrTx, provider: PaymentProviderName, from: string) {
  const rows = await db
    .select({ billDate: reconciliationRuns.billDate })
    .from(reconciliationRuns)
    .where(
      and(
        eq(reconciliationRuns.provider, provider),
        eq(reconciliationRuns.state, 'done'),
        gte(reconciliationRuns.billDate, from),
      ),
    )
  return new Set(rows.map((r) => r.billDate))
}

/**
 * Records a day's reconciliation (done with its differences, or failed with why): the day's run is created or
 * updated, and its differences replace those of an earlier run of the same day. Run it in a transaction.
 */
export async function saveRun(
  tx: DbOrTx,
  run: Pick<RunRow, 'provider' | 'billDate' | 'state' | 'billPayments' | 'billRefunds' | 'error'> & { at: Date },
  differences: NewDifference[],
) {
  const values = {
    provider: run.provider,
    billDate: run.billDate,
    state: run.state,
    billPayments: run.billPayments,
    billRefunds: run.billRefunds,
    differences: differences.length,
    error: run.error,
    createdAt: run.at,
    updatedAt: run.at,
  }
  const saved = await upsert(tx, reconciliationRuns, values, {
    target: [reconciliationRuns.provider, reconciliationRuns.billDate],
    set: {
      state: values.state,
      billPayments: values.billPayments,
      billRefunds: values.billRefunds,
      differences: values.differences,
      error: values.error,
      updatedAt: values.updatedAt,
      attempts: sql`${reconciliationRuns.attempts} + 1`,
    },
  })
  // A failed attempt keeps what an earlier one found; a done one replaces it.
  if (run.state === 'done') {
    await tx.delete(reconciliationDifferences).where(eq(reconciliationDifferences.runId, saved.id))
    if (differences.length > 0)
      await tx.insert(reconciliationDifferences).values(differences.map((d) => ({ ...d, runId: saved.id })))
  }
  return saved
}

/** Reconciliation runs, newest first, paged by id. */
export function listRuns(db: DbOrTx, f: { provider?: PaymentProviderName; before?: number; limit: number }) {
  return newestFirst(db, reconciliationRuns, f, [eqIfGiven(reconciliationRuns.provider, f.provider)])
}

/** Differences found, newest first, paged by id: by provider, day and kind. */
export function listDifferences(
  db: DbOrTx,
  f: { provider?: PaymentProviderName; billDate?: string; kind?: ReconciliationKind; before?: number; limit: number },
) {
  return newestFirst(db, reconciliationDifferences, f, [
    eqIfGiven(reconciliationDifferences.provider, f.provider),
    eqIfGiven(reconciliationDifferences.billDate, f.billDate),
    eqIfGiven(reconciliationDifferences.kind, f.kind),
  ])
}

/** Notifications received, newest first, paged by id: by outcome, provider and order number. */
export function listNotifications(
  db: DbOrTx,
  f: {
    outcome?: NotificationOutcome
    provider?: PaymentProviderName
    orderNo?: string
    before?: number
    limit: number
  },
) {
  return newestFirst(db, paymentNotifications, f, [
    eqIfGiven(paymentNotifications.outcome, f.outcome),
    eqIfGiven(paymentNotifications.provider, f.provider),
    eqIfGiven(paymentNotifications.orderNo, f.orderNo),
  ])
}
