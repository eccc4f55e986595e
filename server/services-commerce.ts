import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/database.ts'
import type { PaymentProviderName } from '#server/db/schema/orders.ts'
import type { BusinessEvents } from '#server/http/business-events.ts'
import type { Metrics } from '#server/http/metrics.ts'
import type { IncomingNotification, PaymentProviders } from '#server/integrations/payments/payments.ts'
import type { FavouritesService } from '#server/modules/favourites/favourites.service.ts'
import { createOrderService, pruneIdempotencyKeys, type OrderRow } from '#server/modules/orders/orders.service.ts'
import { createIdempotencyKeys } from '#server/modules/orders/idempotency.ts'
import { createStaffOrderService } from '#server/modules/orders/staff-orders.service.ts'
import { withTryLock, type NotificationAnswer } from '#server/modules/payments/payments.service.ts'
import { createReconciliationService } from '#server/modules/payments/reconciliation.service.ts'
import { createRefundService, latestRefundColumn } from '#server/modules/refunds/refunds.service.ts'
import { createStaffRefunds } from '#server/modules/refunds/staff-refunds.ts'
import { approveRefund } from '#server/use-cases/approve-refund.ts'
import { checkOrderStatus, type PollTimes } from '#server/use-cases/check-order-status.ts'
import { checkoutAmount } from '#server/use-cases/checkout-amount.ts'
import { checkoutBundle } from '#server/use-cases/checkout-bundle.ts'
import { checkoutCourse } from '#server/use-cases/checkout-course.ts'
import { checkoutFavourites } from '#server/use-cases/checkout-favourites.ts'
import { checkoutVip } from '#server/use-cases/checkout-vip.ts'
import { closeExpiredOrders } from '#server/use-cases/close-expired-orders.ts'
import type { CommerceDeps } from '#server/use-cases/commerce-deps.ts'
import { resumePayment } from '#server/use-cases/resume-payment.ts'
import { receivePaymentNotification } from '#server/use-cases/confirm-payment.ts'
import { receiveRefundNotification } from '#server/use-cases/confirm-refund.ts'
import type { CheckoutContext } from '#server/use-cases/place-order.ts'
import { previewCheckout, type PreviewRequest } from '#server/use-cases/preview-checkout.ts'
import { reconcileBills, reconcileDueDays } from '#server/use-cases/reconcile-bills.ts'
import { reconcileOrder } from '#server/use-cases/reconcile-order.ts'
import { reconcilePendingOrders } from '#server/use-cases/reconcile-pending-orders.ts'
import { rejectRefund } from '#server/use-cases/reject-refund.ts'
import { requestRefund } from '#server/use-cases/request-refund.ts'
import { retryRefund } from '#server/use-cases/retry-refund.ts'
import { sendPendingRefunds } from '#server/use-cases/send-pending-refunds.ts'
import { sendRefund } from '#server/use-cases/send-refund.ts'

const IDEMPOTENCY_KEEP_MS = 24 * 3600_000

/**
 * The commerce part of the composition root (server/services.ts): the workflows of server/use-cases bound to their
 * dependencies (the database, a transaction runner built from `db.transaction`, the configuration, the payment
 * providers, the clock), next to the modules' own services, under the names the routes, the sweeps and the tests
 * use: `orders` (checkout and the member's orders), `staffOrders`, `payments` (notifications, provider queries,
 * sweeps) and `refunds`.
 */
export function createCommerceServices(input: {
  db: Db
  config: Config
  providers: PaymentProviders
  now: () => Date
  favourites: Pick<FavouritesService, 'calc'>
  /** Business events (logged after the transaction that made them commits) and the notification counter. */
  telemetry: { events: BusinessEvents; metrics: Pick<Metrics, 'paymentNotifications'> }
}) {
  const { db, config, now } = input
  const { events, metrics } = input.telemetry
  const deps: CommerceDeps = {
    db,
    transaction: (fn) => events.afterCommit(() => db.transaction(fn)),
    config,
    providers: input.providers,
    now,
    events,
  }
  /** Every notification counted by provider, kind and outcome; one that throws counts as `error`. */
  const counted = (provider: PaymentProviderName, kind: 'payment' | 'refund', answer: Promise<NotificationAnswer>) =>
    answer.then(
      (a) => {
        metrics.paymentNotifications.inc({ provider, kind, outcome: a.outcome })
        return a
      },
      (err: unknown) => {
        metrics.paymentNotifications.inc({ provider, kind, outcome: 'error' })
        throw err
      },
    )
  const withFavourites = { ...deps, favourites: input.favourites }
  const polled: PollTimes = new Map()
  const orderService = createOrderService({ db, refund: latestRefundColumn })
  const refundService = createRefundService({ db, config, now })

  return {
    /** What commerce's use cases share, for workflows bound elsewhere (the tuition checkout, services-tuition.ts). */
    commerceDeps: deps,
    /** Checkout (server/use-cases/checkout-*.ts) and the member's orders (server/modules/orders). */
    orders: {
      payCourse: (ctx: CheckoutContext, courseId: number) => checkoutCourse(deps, ctx, courseId),
      payBundle: (ctx: CheckoutContext, bundleId: number) => checkoutBundle(deps, ctx, bundleId),
      payFavourites: (ctx: CheckoutContext, courseIds: number[] | undefined) =>
        checkoutFavourites(withFavourites, ctx, courseIds),
      payVip: (ctx: CheckoutContext, planId: number) => checkoutVip(deps, ctx, planId),
      payAmount: (ctx: CheckoutContext, amountFen: number, title: string) =>
        checkoutAmount(deps, ctx, amountFen, title),
      preview: (memberId: number, what: PreviewRequest) => previewCheckout(withFavourites, memberId, what),
      status: (memberId: number, orderNo: string) => checkOrderStatus({ ...deps, polled }, memberId, orderNo),
      list: (memberId: number, filter: Parameters<typeof orderService.list>[1]) => orderService.list(memberId, filter),
      detail: (memberId: number, orderNo: string) => orderService.detail(memberId, orderNo),
      resume: (memberId: number, orderNo: string, clientIp: string, origin?: string) =>
        resumePayment(deps, memberId, orderNo, clientIp, origin),
    },
    /** The stored answers of `Idempotency-Key` requests (the plugin of server/modules/orders/idempotency.ts). */
    idempotencyKeys: createIdempotencyKeys(db),
    /** Order search and CSV export for operators. */
    staffOrders: createStaffOrderService({ db }),
    /** Provider notifications and queries (confirm-payment, confirm-refund, reconcile-order) and the sweeps. */
    payments: {
      handlePaymentNotification: (provider: PaymentProviderName, incoming: IncomingNotification) =>
        counted(provider, 'payment', receivePaymentNotification(deps, provider, incoming)),
      handleRefundNotification: (provider: PaymentProviderName, incoming: IncomingNotification) =>
        counted(provider, 'refund', receiveRefundNotification(deps, provider, incoming)),
      reconcile: (order: Pick<OrderRow, 'orderNo' | 'payMethod'>) => reconcileOrder(deps, order),
      sendRefund: (refundId: number) => sendRefund(deps, refundId),
      closeExpired: (limit?: number) => closeExpiredOrders(deps, limit),
      reconcilePending: (limit?: number) => reconcilePendingOrders(deps, limit),
      sendPendingRefunds: (limit?: number) => sendPendingRefunds(deps, limit),
      /** The advisory lock of the sweeps (server/modules/payments/sweeps.ts): one process at a time. */
      withTryLock: <T>(key: number, fn: () => Promise<T>) => withTryLock(db, key, fn),
      pruneIdempotencyKeys: () => pruneIdempotencyKeys(db, new Date(now().getTime() - IDEMPOTENCY_KEEP_MS)),
      /** The daily reconciliation (server/use-cases/reconcile-bills.ts): one provider's day, or every day due. */
      reconcileDay: (provider: PaymentProviderName, date: string) => reconcileBills(deps, provider, date),
      reconcileDueDays: () => reconcileDueDays(deps),
      /** What staff read: notifications received, reconciliation runs and the differences they found. */
      reconciliation: createReconciliationService({ db }),
    },
    /** Refund requests and operator decisions: the screens (server/modules/refunds) and the *-refund use cases. */
    refunds: {
      check: (memberId: number, orderNo: string) => refundService.check(memberId, orderNo),
      staff: createStaffRefunds(db),
      request: (memberId: number, orderNo: string, reason: string, itemIds?: readonly number[]) =>
        requestRefund(deps, memberId, orderNo, reason, itemIds),
      approve: (staffId: number, refundNo: string, input: { amountFen?: number; note?: string }) =>
        approveRefund(deps, staffId, refundNo, input),
      retry: (staffId: number, refundNo: string) => retryRefund(deps, staffId, refundNo),
      reject: (staffId: number, refundNo: string, note: string) => rejectRefund(deps, staffId, refundNo, note),
    },
  }
}
