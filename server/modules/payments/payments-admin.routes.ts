import type { ProviderName as PaymentProviderName } from '#server/integrations/payments/payments.ts'
import { adminPlugin } from '#server/http/route.ts'
import {
  DifferenceListResponse,
  DifferenceQuery,
  NotificationListResponse,
  NotificationQuery,
  RunListResponse,
  RunQuery,
  RunRequest,
  RunResponse,
  type RunView,
} from './payments.schema.ts'
import type { ReconciliationService } from './reconciliation.service.ts'

interface AdminPaymentRoutesOptions {
  payments: {
    /** What staff read (reconciliation.service.ts). */
    reconciliation: ReconciliationService
    /** The reconcile-bills use case for one provider's day. */
    reconcileDay: (provider: PaymentProviderName, date: string) => Promise<RunView>
  }
}

/**
 * Payments for operators (admins only; changes are recorded in the staff action log): the notifications the
 * providers sent, genuine payments of unknown orders among them, and the daily reconciliation of the providers'
 * bills with our payments: its runs, the differences found, and a run of one day on demand.
 */
export const adminPaymentRoutes = adminPlugin('payments.reconcile', (r, { payments }: AdminPaymentRoutesOptions) => {
  r.get(
    '/admin/payment-notifications',
    {
      summary: 'Payment and refund notifications received, newest first, with their outcome (e.g. unknown_order)',
      querystring: NotificationQuery,
      response: NotificationListResponse,
    },
    async (request) => payments.reconciliation.notifications(request.query),
  )
  r.get(
    '/admin/reconciliation/runs',
    {
      summary: 'Daily reconciliations of the providers’ bills with our payments, newest first',
      querystring: RunQuery,
      response: RunListResponse,
    },
    async (request) => payments.reconciliation.runs(request.query),
  )
  r.post(
    '/admin/reconciliation/runs',
    {
      summary: 'Reconcile one provider’s bill of one past day now (again: its differences are replaced)',
      body: RunRequest,
      response: RunResponse,
    },
    async (request) => payments.reconcileDay(request.body.provider, request.body.bill_date),
  )
  r.get(
    '/admin/reconciliation/differences',
    {
      summary: 'Differences between the providers’ bills and our payments and refunds, newest first',
      querystring: DifferenceQuery,
      response: DifferenceListResponse,
    },
    async (request) => payments.reconciliation.differences(request.query),
  )
})
