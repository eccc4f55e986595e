import { and, asc, desc, eq, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { containsText, tableList } from '#server/db/list.ts'
import { newestByTime, type TimeCursor } from '#server/db/rows.ts'
import {
  exchangeRecords,
  exchangeSkus,
  platformOrders,
  platformPushes,
  type PlatformOrderLine,
} from '#server/db/schema/exchange.ts'
import type { Platform } from '#shared/exchange-platforms.ts'

export type SkuRow = typeof exchangeSkus.$inferSelect
export type RecordRow = typeof exchangeRecords.$inferSelect

// ---- SKU mappings ------------------------------------------------------------------------------------------

export interface SkuFilter {
  platform?: Platform
  text?: string
}

function skuWhere(f: SkuFilter): SQL | undefined {
  return and(
    f.platform ? eq(exchangeSkus.platform, f.platform) : undefined,
    f.text ? or(containsText(exchangeSkus.skuId, f.text), containsText(exchangeSkus.productName, f.text)) : undefined,
  )
}

const skuSorts = { id: exchangeSkus.id, updated_at: exchangeSkus.updatedAt }

export const skuList = tableList(exchangeSkus, skuWhere, skuSorts)

/** Inserts a mapping; null when the platform already maps this SKU. */
export async function insertSku(db: DbOrTx, row: typeof exchangeSkus.$inferInsert) {
  const [r] = await db.insert(exchangeSkus).values(row).onConflictDoNothing().returning()
  return r ?? null
}

export async function updateSku(db: DbOrTx, id: number, patch: Partial<typeof exchangeSkus.$inferInsert>) {
  const [r] = await db.update(exchangeSkus).set(patch).where(eq(exchangeSkus.id, id)).returning()
  return r ?? null
}

export async function deleteSku(db: DbOrTx, id: number) {
  const [r] = await db.delete(exchangeSkus).where(eq(exchangeSkus.id, id)).returning()
  return r ?? null
}

export function findSkus(db: DbOrTx, platform: Platform, skuIds: string[]) {
  if (skuIds.length === 0) return Promise.resolve([] as SkuRow[])
  return db
    .select()
    .from(exchangeSkus)
    .where(and(eq(exchangeSkus.platform, platform), inArray(exchangeSkus.skuId, skuIds)))
}

/** Whether a platform has a SKU mapped to this course (operators' mappings: a small table). */
export async function courseHasSku(db: DbOrTx, platform: Platform, courseId: number) {
  return (
    (await db.$count(exchangeSkus, and(eq(exchangeSkus.platform, platform), eq(exchangeSkus.courseId, courseId)))) > 0
  )
}

// ---- Exchange records -----------------------------------------------------------------------------------------

/**
 * Inserts the records of one exchange; a line someone exchanged already (the unique key) is left out. A concurrent
 * exchange of the same line waits here for the first transaction and then finds the line taken. Returns the rows
 * this call inserted.
 */
export function insertRecords(db: DbOrTx, rows: (typeof exchangeRecords.$inferInsert)[]) {
  return db.insert(exchangeRecords).values(rows).onConflictDoNothing().returning()
}

export function findOrderRecords(db: DbOrTx, platform: Platform, orderId: string) {
  return db
    .select()
    .from(exchangeRecords)
    .where(and(eq(exchangeRecords.platform, platform), eq(exchangeRecords.orderId, orderId)))
    .orderBy(asc(exchangeRecords.id))
}

export async function setRedeemRefs(db: DbOrTx, ids: { id: number; ref: string }[]) {
  for (const r of ids) await db.update(exchangeRecords).set({ redeemRef: r.ref }).where(eq(exchangeRecords.id, r.id))
}

/** Marks granted records revoked (those of `lineIds`, or the order's all), once; returns what it revoked. */
export function revokeOrderRecords(
  db: DbOrTx,
  r: { platform: Platform; orderId: string; lineIds: string[] | null; reason: string; now: Date },
) {
  return db
    .update(exchangeRecords)
    .set({ status: 'revoked', revokedAt: r.now, revokeReason: r.reason })
    .where(
      and(
        eq(exchangeRecords.platform, r.platform),
        eq(exchangeRecords.orderId, r.orderId),
        eq(exchangeRecords.status, 'granted'),
        r.lineIds ? inArray(exchangeRecords.lineId, r.lineIds) : undefined,
      ),
    )
    .returning()
}

export async function revokeRecordById(db: DbOrTx, id: number, reason: string, now: Date) {
  const [r] = await db
    .update(exchangeRecords)
    .set({ status: 'revoked', revokedAt: now, revokeReason: reason })
    .where(and(eq(exchangeRecords.id, id), eq(exchangeRecords.status, 'granted')))
    .returning()
  return r ?? null
}

/** Records by their unique key (platform, order, line). */
export function findRecordsByKeys(db: DbOrTx, keys: { platform: Platform; orderId: string; lineId: string }[]) {
  if (keys.length === 0) return Promise.resolve([] as RecordRow[])
  return db
    .select()
    .from(exchangeRecords)
    .where(
      or(
        ...keys.map((k) =>
          and(
            eq(exchangeRecords.platform, k.platform),
            eq(exchangeRecords.orderId, k.orderId),
            eq(exchangeRecords.lineId, k.lineId),
          ),
        ),
      ),
    )
}

export async function findRecord(db: DbOrTx, id: number) {
  const [r] = await db.select().from(exchangeRecords).where(eq(exchangeRecords.id, id))
  return r ?? null
}

/** A member's records, newest grant first, those granted before `before` (at equal times, with lower ids). */
export function memberRecords(db: DbOrTx, memberId: number, before: TimeCursor | null, limit: number) {
  return newestByTime(db, exchangeRecords, exchangeRecords.grantedAt, { before, limit }, [
    eq(exchangeRecords.memberId, memberId),
  ])
}

export interface RecordFilter {
  platform?: Platform
  status?: 'granted' | 'revoked'
  memberId?: number
  orderId?: string
}

function recordWhere(f: RecordFilter) {
  return and(
    f.platform ? eq(exchangeRecords.platform, f.platform) : undefined,
    f.status ? eq(exchangeRecords.status, f.status) : undefined,
    f.memberId ? eq(exchangeRecords.memberId, f.memberId) : undefined,
    f.orderId ? eq(exchangeRecords.orderId, f.orderId) : undefined,
  )
}

const recordSorts = { id: exchangeRecords.id, granted_at: exchangeRecords.grantedAt }

export const recordList = tableList(exchangeRecords, recordWhere, recordSorts)

/**
 * Exchanges granted in [from, to) by Beijing day and platform: how many platform orders, what their lines cost the
 * buyers (fen, where the platform said) and how many lines had no amount. Revoked ones count: they were exchanged.
 */
export function exchangeFigures(db: DbOrTx, from: Date, to: Date) {
  const day = sql<string>`to_char(${exchangeRecords.grantedAt} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`
  return db
    .select({
      day,
      platform: exchangeRecords.platform,
      orders: sql<number>`count(distinct ${exchangeRecords.orderId})::int`,
      fen: sql<number>`coalesce(sum(${exchangeRecords.amountFen}), 0)::int`,
      unpriced: sql<number>`(count(*) filter (where ${exchangeRecords.amountFen} is null))::int`,
    })
    .from(exchangeRecords)
    .where(and(gte(exchangeRecords.grantedAt, from), lt(exchangeRecords.grantedAt, to)))
    .groupBy(day, exchangeRecords.platform)
}

// ---- Orders the platforms reported, and their pushes ------------------------------------------------------

export function upsertPlatformOrder(
  db: DbOrTx,
  o: {
    platform: Platform
    orderId: string
    buyerPhone: string | null
    status: 'paid' | 'refunded' | 'cancelled'
    lines: PlatformOrderLine[]
    paidAt: Date | null
    now: Date
  },
) {
  return db
    .insert(platformOrders)
    .values({ ...o, updatedAt: o.now })
    .onConflictDoUpdate({
      target: [platformOrders.platform, platformOrders.orderId],
      set: {
        buyerPhone: sql`coalesce(excluded.buyer_phone, ${platformOrders.buyerPhone})`,
        status: o.status,
        lines: o.lines,
        updatedAt: o.now,
      },
    })
}

/** Whether any order was reported bought with `phone` (paid, refunded or cancelled). */
export async function phoneHasOrders(db: DbOrTx, phone: string) {
  const [row] = await db
    .select({ id: platformOrders.id })
    .from(platformOrders)
    .where(eq(platformOrders.buyerPhone, phone))
    .limit(1)
  return row !== undefined
}

/** Paid orders bought with `phone` that still have a line nobody exchanged, newest first. */
export function unexchangedOrders(db: DbOrTx, phone: string, platforms: Platform[], limit: number) {
  return db
    .select()
    .from(platformOrders)
    .where(
      and(
        eq(platformOrders.buyerPhone, phone),
        inArray(platformOrders.platform, platforms),
        eq(platformOrders.status, 'paid'),
        sql`exists (
          select 1 from jsonb_array_elements(${platformOrders.lines}) l
          where not exists (
            select 1 from ${exchangeRecords} r
            where r.platform = ${platformOrders.platform} and r.order_id = ${platformOrders.orderId}
              and r.line_id = l->>'line_id'
          )
        )`,
      ),
    )
    .orderBy(desc(platformOrders.paidAt), desc(platformOrders.id))
    .limit(limit)
}

/** Records a push message id; false when it was handled before (a replay). */
export async function firstPush(db: DbOrTx, platform: Platform, msgId: string, now: Date) {
  const rows = await db
    .insert(platformPushes)
    .values({ platform, msgId, receivedAt: now })
    .onConflictDoNothing()
    .returning({ msgId: platformPushes.msgId })
  return rows.length === 1
}
