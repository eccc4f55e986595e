import type { Db, DbOrTx } from '#server/db/database.ts'
import type { ProviderName as PaymentProviderName } from '#server/integrations/payments/payments.ts'
import { pageById } from '#server/http/cursor.ts'
import { apiFieldsExcept } from '#server/http/present.ts'
import type {
  DifferenceList,
  DifferenceQuery,
  NotificationList,
  NotificationQuery,
  RunList,
  RunQuery,
  RunView,
} from './payments.schema.ts'
import {
  doneDays,
  listDifferences,
  listNotifications,
  listRuns,
  saveRun,
  type NewDifference,
  type RunRow,
} from './reconciliation.repository.ts'

export { compareBill, missingTheirs, type OurPayment, type OurRefund } from './bill-comparison.ts'
export type { NewDifference } from './reconciliation.repository.ts'

// The payments module's door for the daily reconciliation (what the providers' bills say against our payments;
// server/use-cases/reconcile-bills.ts runs it) and for staff: the runs, the differences they found, and the
// notifications received (genuine payments of unknown orders among them).

/** The days of `provider` from `from` (yyyy-MM-dd) whose reconciliation is done. */
export function reconciledDays(db: DbOrTx, provider: PaymentProviderName, from: string): Promise<Set<string>> {
  return doneDays(db, provider, from)
}

/**
 * Records a day's reconciliation in the caller's transaction: done, with the differences found (replacing those of
 * an earlier run of the day), or failed, with why.
 */
export async function recordReconciliation(
  tx: DbOrTx,
  run: { provider: PaymentProviderName; billDate: string; at: Date } & (
    { state: 'done'; billPayments: number; billRefunds: number } | { state: 'failed'; error: string }
  ),
  differences: Omit<NewDifference, 'provider' | 'billDate' | 'createdAt'>[],
): Promise<RunView> {
  const done = run.state === 'done'
  const row = await saveRun(
    tx,
    {
      provider: run.provider,
      billDate: run.billDate,
      state: run.state,
      billPayments: done ? run.billPayments : 0,
      billRefunds: done ? run.billRefunds : 0,
      error: done ? null : run.error.slice(0, 500),
      at: run.at,
    },
    differences.map((d) => ({ ...d, provider: run.provider, billDate: run.billDate, createdAt: run.at })),
  )
  return toRunView(row)
}

function toRunView(r: RunRow): RunView {
  return apiFieldsExcept(r, ['createdAt'])
}

type DifferenceRow = Awaited<ReturnType<typeof listDifferences>>[number]
type NotificationRow = Awaited<ReturnType<typeof listNotifications>>[number]

function toDifferenceView(d: DifferenceRow): DifferenceList['list'][number] {
  return apiFieldsExcept(d, ['runId'])
}

function toNotificationView(n: NotificationRow): NotificationList['list'][number] {
  // The body as received stays out: it is the provider's, and may hold what no one should read again.
  return apiFieldsExcept(n, ['raw'])
}

/**
 * One page of a staff list, newest first: `read` gets the id to continue before and one row more than the page
 * holds (that row only says another page follows), `view` presents each row.
 */
async function newestPage<R extends { id: number }, V>(
  q: { cursor?: number; limit: number },
  read: (window: { before?: number; limit: number }) => Promise<R[]>,
  view: (row: R) => V,
) {
  const { page, nextCursor } = pageById(await read({ before: q.cursor, limit: q.limit + 1 }), q.limit)
  return { list: page.map(view), next_cursor: nextCursor }
}

/** What staff read (GET /api/admin/payment-notifications, /api/admin/reconciliation/…), newest first, by id. */
export function createReconciliationService(deps: { db: Db }) {
  const { db } = deps
  return {
    /** Reconciliation runs. */
    runs(q: RunQuery): Promise<RunList> {
      return newestPage(q, (w) => listRuns(db, { provider: q.provider, ...w }), toRunView)
    },
    /** The differences found. */
    differences(q: DifferenceQuery): Promise<DifferenceList> {
      const filter = { provider: q.provider, billDate: q.bill_date, kind: q.kind }
      return newestPage(q, (w) => listDifferences(db, { ...filter, ...w }), toDifferenceView)
    },
    /** The payment and refund notifications received, with what became of each. */
    notifications(q: NotificationQuery): Promise<NotificationList> {
      const filter = { outcome: q.outcome, provider: q.provider, orderNo: q.order_no }
      return newestPage(q, (w) => listNotifications(db, { ...filter, ...w }), toNotificationView)
    },
  }
}

export type ReconciliationService = ReturnType<typeof createReconciliationService>
