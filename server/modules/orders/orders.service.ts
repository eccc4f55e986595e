import crypto from 'node:crypto'
import type { z } from 'zod'
import type { Db, DbOrTx } from '#server/db/database.ts'
import type { ColumnPart } from '#server/db/prepared.ts'
import type { OrderKind } from '#server/db/schema/orders.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { apiFields } from '#server/http/present.ts'
import type { PrepayResult } from '#server/integrations/payments/payments.ts'
import { fenToYuan } from '#shared/money.ts'
import { beijingCompactDate } from '#shared/time.ts'
import { deleteKeysBefore } from './idempotency.repository.ts'
import * as repo from './orders.repository.ts'
import type { NewOrder, NewOrderEvent, NewOrderItem, OrderItemRow, OrderRow } from './orders.repository.ts'
import type { CheckoutData, OrderView } from './orders.schema.ts'
import { pageById } from '#server/http/cursor.ts'

/** What a checkout answers (POST /pay/…): the order and what the client needs to pay it. */
export type CheckoutAnswer = z.infer<typeof CheckoutData>
/** The answer of every checkout (the tuition checkout of issue 15 answers it too). */
export { CheckoutResponse } from './orders.schema.ts'

export type { NewOrderItem, OrderItemRow, OrderRow } from './orders.repository.ts'

// The orders module's door: the order state machine (pending → paid → refunding → refunded …) and its event log,
// for the workflows in server/use-cases (checkout, payment, refunds, sweeps), and the member's own order list.
// Functions that take `tx` run inside the caller's transaction.

/** ZX + Beijing date + 10 random digits: readable, sortable by day, 20 characters (WeChat allows 32). */
export function newOrderNo(at: Date) {
  return `ZX${beijingCompactDate(at)}${crypto.randomInt(0, 1e10).toString().padStart(10, '0')}`
}

/** The page that sells what an order bought: its checkout, the bundle, the favourites, the amount link. */
function buyAgainPath(
  order: Pick<OrderRow, 'kind' | 'target' | 'title' | 'amountFen' | 'payMethod' | 'originalFen'>,
  items: Pick<OrderItemRow, 'courseId' | 'vipPlanId'>[],
) {
  const [, ref] = order.target.split(':')
  const course = items.find((i) => i.courseId !== null)?.courseId
  switch (order.kind) {
    case 'course':
      if (!course) return '/ke'
      return order.payMethod === 'points' && order.originalFen === 0
        ? `/course/creditPay/${course}`
        : `/course/coursePurchase?course_id=${course}`
    case 'vip':
      return items[0]?.vipPlanId ? `/vipBuy?plan_id=${items[0].vipPlanId}` : '/vipBuy'
    case 'bundle':
      return `/foryou/${ref}`
    case 'favourites':
      return '/myCollection'
    case 'amount':
      return `/PayAmount?amount=${fenToYuan(order.amountFen)}&title=${encodeURIComponent(order.title)}`
    case 'tuition':
      return '/order3'
  }
}

/** What every answer about an order shows: its number, kind, state, title and money. */
function orderBasics(order: OrderRow) {
  return apiFields(order, [
    'orderNo',
    'kind',
    'state',
    'title',
    'amountFen',
    'originalFen',
    'discountFen',
    'pointsUsed',
  ])
}

/** An order as the API shows it, with its own items out of `items`. */
export function toOrderView(order: OrderRow, items: OrderItemRow[]): z.infer<typeof OrderView> {
  const own = items.filter((i) => i.orderId === order.id)
  return {
    ...orderBasics(order),
    refunded_fen: order.refundedFen,
    pay_method: order.payMethod,
    created_at: order.createdAt.toISOString(),
    expires_at: order.expiresAt.toISOString(),
    paid_at: order.paidAt?.toISOString() ?? null,
    closed_at: order.closedAt?.toISOString() ?? null,
    items: own.map((i) => ({ course_id: i.courseId, vip_plan_id: i.vipPlanId, title: i.title, price_fen: i.priceFen })),
    buy_again_path: buyAgainPath(order, own),
  }
}

/** What a checkout answers: the order and what the client needs to pay it. */
export function toCheckoutData(order: OrderRow, reused: boolean, pay: PrepayResult): CheckoutAnswer {
  return {
    ...orderBasics(order),
    pay_method: order.payMethod,
    expires_at: order.expiresAt.toISOString(),
    reused,
    jsapi: pay.jsapi ?? null,
    h5_url: pay.h5Url ?? null,
    code_url: pay.codeUrl ?? null,
    redirect_url: pay.redirectUrl ?? null,
  }
}

// The doors that are repository queries as they are (other modules call them through this service).
export {
  /** The member's pending order for this target, if any. */
  findPendingOrder,
  /**
   * Moves an order from one of `from` to `to` (a conditional update). Returns the updated row, or null when another
   * transition got there first.
   */
  transitionOrder,
  /** Appends to an order's event log (every transition, and decisions that move nothing). */
  insertOrderEvent as recordOrderEvent,
  /** An order by number, or null. */
  findOrderByNo,
  /** An order by number, locked for the rest of the transaction; null when unknown. */
  lockOrderByNo,
  /** An order by id, or null. */
  findOrderById,
  /** An order by id, locked for the rest of the transaction; null when unknown. */
  lockOrderById,
  /** Orders whose money `provider` took within [from, to): our side of a day's bill. */
  findPaidBetween as ordersPaidBetween,
  /** The items of these orders, in order. */
  findItems as orderItems,
  /** Pending orders past their expiry, oldest expiry first. */
  findExpiredPending,
  /** Pending provider orders created before `createdBefore` and not expired: their notification is overdue. */
  findUnansweredPending,
  /**
   * The payment fast path's one statement: marks the pending order of this number and amount paid with its `paid` event,
   * and runs the other modules' parts in the same statement (see orders.repository.ts `settlePendingOrder` for what they may
   * read). Null when the order was not payable and nothing was written.
   */
  settlePendingOrder,
} from './orders.repository.ts'

/**
 * Opens a pending order with its items and its `created` event. Null when the member already has a pending order
 * for this target (a concurrent tap won): nothing was written.
 */
export async function openOrder(
  tx: DbOrTx,
  values: Omit<NewOrder, 'state'>,
  items: NewOrderItem[],
  event: Pick<NewOrderEvent, 'actor' | 'data'>,
) {
  const order = await repo.insertPendingOrder(tx, values)
  if (!order) return null
  await repo.insertItemsAndEvent(tx, order.id, items, {
    orderId: order.id,
    fromState: null,
    toState: 'pending',
    reason: 'created',
    actor: event.actor,
    data: event.data,
    createdAt: values.createdAt,
  })
  return order
}

/** These orders by id. */
export async function ordersByIds(db: DbOrTx, ids: number[]): Promise<Map<number, OrderRow>> {
  return new Map((await repo.findOrdersByIds(db, [...new Set(ids)])).map((o) => [o.id, o]))
}

/** These orders by order number, any state (the daily reconciliation looks up a bill's orders). */
export async function ordersByNos(db: DbOrTx, orderNos: string[]): Promise<Map<string, OrderRow>> {
  return new Map((await repo.findOrdersByNos(db, [...new Set(orderNos)])).map((o) => [o.orderNo, o]))
}

/** One of the member's orders; another member's order is "not found" exactly like one that does not exist. */
export async function findOwnOrder(db: DbOrTx, memberId: number, orderNo: string) {
  const order = await repo.findOrderByNo(db, orderNo)
  if (!order || order.memberId !== memberId) throw new AppError(Codes.NotFound, '订单不存在')
  return order
}

/** Forgets `Idempotency-Key` answers older than `before`. */
export function pruneIdempotencyKeys(db: DbOrTx, before: Date) {
  return deleteKeysBefore(db, before)
}

/** A refund as a member's order shows it (the refunds module builds it). */
export interface RefundBrief {
  refund_no: string
  state: 'requested' | 'rejected' | 'processing' | 'succeeded' | 'failed'
  amount_fen: number
  reason: string
  note: string | null
}

/** The member's own orders: list and detail (checkout and payment are use cases in server/use-cases). */
export function createOrderService(deps: {
  db: Db
  /**
   * The newest refund of an order, a column of the statements that read the member's orders (the refunds module's,
   * passed in by the composition root). Without it, orders show no refund.
   */
  refund?: ColumnPart<RefundBrief | null>
}) {
  const { db, refund } = deps
  return {
    /**
     * The member's orders, newest first, optionally of one kind, paged by cursor. Kind `course` lists every
     * order that gives courses (single courses, bundles, favourites bought together): the /order screen;
     * `exchange` the courses exchanged for points (/order4).
     */
    async list(memberId: number, filter: { kind?: OrderKind | 'exchange'; cursor?: number; limit: number }) {
      const exchanges = filter.kind === 'exchange'
      const kinds: OrderKind[] | undefined =
        filter.kind === 'course'
          ? ['course', 'bundle', 'favourites']
          : filter.kind === 'amount'
            ? ['amount', 'tuition']
            : filter.kind && filter.kind !== 'exchange'
              ? [filter.kind]
              : undefined
      // One statement: the page, each order with its items and its newest refund.
      const rows = await repo.listMemberOrdersWithItems(
        db,
        memberId,
        { kinds, exchanges, before: filter.cursor, limit: filter.limit + 1 },
        refund,
      )
      const { page, nextCursor } = pageById(rows, filter.limit)
      return {
        list: page.map((o) => ({ ...toOrderView(o, o.items), refund: o.column ?? null })),
        next_cursor: nextCursor,
      }
    },

    /** One of the member's orders with its history; another member's order is "not found". */
    async detail(memberId: number, orderNo: string) {
      const order = await findOwnOrder(db, memberId, orderNo)
      const [items, events, refunded] = await Promise.all([
        repo.findItems(db, [order.id]),
        repo.findEvents(db, order.id),
        refund ? repo.orderColumn(db, refund, order.id) : null,
      ])
      return {
        ...toOrderView(order, items),
        refund: refunded,
        events: events.map((e) => ({
          from: e.fromState,
          to: e.toState,
          reason: e.reason,
          at: e.createdAt.toISOString(),
        })),
      }
    },
  }
}

/** A member's courses exchanged for points, newest first (time, id), before `before`: the /order4 record's points part. */
export function memberPointsExchanges(
  db: DbOrTx,
  memberId: number,
  before: { at: Date; id: number } | null,
  limit: number,
) {
  return repo.listMemberPointsExchanges(db, memberId, before, limit)
}

/** Orders paid in a period by Beijing day, kind and payment method; the courses sold most (operators' dashboard). */
export { paidOrderFigures, topSoldCourses, type PaidOrderFigure } from './figures.repository.ts'

/** A member's orders with items (data export, issue 10 §5); orders are kept on deletion. */
export { selectMemberOrders as ordersForExport } from './orders-privacy.repository.ts'
