import { and, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { tableList } from '#server/db/list.ts'
import { eqIfGiven, inPeriod, newestFirst, upsert } from '#server/db/rows.ts'
import { executePrepared, type StatementPart } from '#server/db/prepared.ts'
import { pointBalances, pointEntries, type PointReason } from '#server/db/schema/points.ts'

export interface PointChange {
  memberId: number
  points: number
  reason: PointReason
  orderId?: number | null
  actor: string
  note?: string | null
  at: Date
}

/** The ledger entry of a change: `delta` points (negative when taken), leaving `balanceAfter`. */
async function insertEntry(db: DbOrTx, c: PointChange, delta: number, balanceAfter: number) {
  await db.insert(pointEntries).values({
    memberId: c.memberId,
    delta,
    balanceAfter,
    reason: c.reason,
    orderId: c.orderId ?? null,
    actor: c.actor,
    note: c.note ?? null,
    createdAt: c.at,
  })
}

/** Adds points: the cached balance and the ledger entry in the caller's transaction. Returns the new balance. */
export async function creditPoints(db: DbOrTx, c: PointChange) {
  const row = await upsert(
    db,
    pointBalances,
    { memberId: c.memberId, balance: c.points, updatedAt: c.at },
    { target: pointBalances.memberId, set: { balance: sql`${pointBalances.balance} + ${c.points}`, updatedAt: c.at } },
  )
  await insertEntry(db, c, c.points, row.balance)
  return row.balance
}

/**
 * Takes points only if the balance covers them, in one conditional update (so concurrent spends cannot take the
 * same points twice). Returns the new balance, or null when there were not enough.
 */
export async function debitPoints(db: DbOrTx, c: PointChange) {
  const [row] = await db
    .update(pointBalances)
    .set({ balance: sql`${pointBalances.balance} - ${c.points}`, updatedAt: c.at })
    .where(and(eq(pointBalances.memberId, c.memberId), sql`${pointBalances.balance} >= ${c.points}`))
    .returning({ balance: pointBalances.balance })
  if (!row) return null
  await insertEntry(db, c, -c.points, row.balance)
  return row.balance
}

export async function pointBalance(db: DbOrTx, memberId: number) {
  const [row] = await db
    .select({ balance: pointBalances.balance })
    .from(pointBalances)
    .where(eq(pointBalances.memberId, memberId))
  return row?.balance ?? 0
}

/**
 * Locks the member's balance row for the transaction, creating it at 0, and returns the balance: one statement.
 * The no-op update on conflict takes the same row lock an UPDATE does, so concurrent holders wait for each other
 * exactly as with SELECT … FOR UPDATE, one round trip fewer.
 */
export async function lockBalance(db: DbOrTx, memberId: number, at: Date) {
  const row = await upsert(
    db,
    pointBalances,
    { memberId, balance: 0, updatedAt: at },
    { target: pointBalances.memberId, set: { balance: sql`${pointBalances.balance}` } },
  )
  return row.balance
}

/** Net points an order earned (still held) and spent (not returned yet), from its ledger entries. */
export async function orderPointNet(db: DbOrTx, orderId: number) {
  const rows = await db
    .select({ reason: pointEntries.reason, sum: sql<number>`sum(${pointEntries.delta})::int` })
    .from(pointEntries)
    .where(eq(pointEntries.orderId, orderId))
    .groupBy(pointEntries.reason)
  const sum = (reasons: PointReason[]) => rows.filter((r) => reasons.includes(r.reason)).reduce((s, r) => s + r.sum, 0)
  return {
    earned: sum(['order_earned', 'order_earned_reversed']),
    spent: -sum(['order_spent', 'order_spent_returned']),
  }
}

/** A member's ledger, newest first. */
export async function listEntries(db: DbOrTx, memberId: number, filter: { before?: number; limit: number }) {
  return newestFirst(db, pointEntries, filter, [eq(pointEntries.memberId, memberId)])
}

/**
 * Credits the points a paid order earns, unless it earned them already (its earned and reversed entries add up to
 * something): balance and ledger entry in one prepared statement. Returns whether they were credited.
 */
export async function earnForOrder(db: DbOrTx, e: { memberId: number; orderId: number; points: number; at: Date }) {
  const at = sql`${e.at.toISOString()}::timestamptz`
  const rows = await executePrepared<{ id: number }>(
    db,
    'zixue_earn_for_order',
    sql`
    with earning as (
      select 1 where coalesce((select sum(x.delta) from ${pointEntries} x
        where x.order_id = ${e.orderId}::int and x.reason in ('order_earned', 'order_earned_reversed')), 0) = 0
    ),
    balance_row as (
      insert into ${pointBalances} (member_id, balance, updated_at)
      select ${e.memberId}::int, ${e.points}::int, ${at} from earning
      on conflict (member_id) do update set balance = point_balances.balance + ${e.points}::int, updated_at = ${at}
      returning balance
    )
    insert into ${pointEntries} (member_id, delta, balance_after, reason, order_id, actor, note, created_at)
    select ${e.memberId}::int, ${e.points}::int, balance, 'order_earned', ${e.orderId}::int, 'system', null, ${at}
    from balance_row
    returning id`,
  )
  return rows.length > 0
}

/**
 * `earnForOrder` as a part of the payment fast path's statement (orders.repository.ts `settlePendingOrder`, which
 * provides `paid_order`): the points the paid order earns, unless it earned them already. Summary: points_earned.
 */
export function orderEarningPart(points: number, at: Date): StatementPart {
  const t = sql`${at.toISOString()}::timestamptz`
  return {
    name: 'points',
    ctes: sql`
    earning as (
      select paid_order.member_id, paid_order.id as order_id from paid_order
      where ${points}::int > 0
        and coalesce((select sum(x.delta) from ${pointEntries} x
          where x.order_id = paid_order.id and x.reason in ('order_earned', 'order_earned_reversed')), 0) = 0
    ),
    balance_row as (
      insert into ${pointBalances} (member_id, balance, updated_at)
      select member_id, ${points}::int, ${t} from earning
      on conflict (member_id) do update set balance = point_balances.balance + ${points}::int, updated_at = ${t}
      returning member_id, balance
    ),
    entry_row as (
      insert into ${pointEntries} (member_id, delta, balance_after, reason, order_id, actor, note, created_at)
      select balance_row.member_id, ${points}::int, balance_row.balance, 'order_earned', earning.order_id, 'system', null, ${t}
      from balance_row, earning
      returning id
    )`,
    summary: sql`jsonb_build_object('points_earned', case when exists (select 1 from entry_row) then ${points}::int end)`,
  }
}

// ---- Operators: every member's ledger, as the console lists it --------------------------------------------------

export interface LedgerFilter {
  memberId?: number
  reason?: PointReason
  from?: Date
  before?: Date
}

/**
 * Ledger entries as the console lists them (tableList): by member, reason and period; the only sort is by id (the
 * ledger is append-only, so id order is time order).
 */
export const ledgerList = tableList(
  pointEntries,
  (f: LedgerFilter) =>
    and(
      eqIfGiven(pointEntries.memberId, f.memberId),
      eqIfGiven(pointEntries.reason, f.reason),
      inPeriod(pointEntries.createdAt, f.from, f.before),
    ),
  { id: pointEntries.id },
)
