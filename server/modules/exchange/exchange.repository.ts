import { and, asc, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import {
  exchangeRecords,
  exchangeSkus,
  platformOrders,
  platformPushes,
  type PlatformOrderLine,
} from '#server/db/schema/exchange.ts'
import type { Sort } from '#server/http/admin-list.ts'
import type { Platform } from '#shared/api/exchange.ts'

export type SkuRow = typeof exchangeSkus.$inferSelect
export type RecordRow = typeof exchangeRecords.$inferSelect

// ---- SKU mappings ------------------------------------------------------------------------------------------

export interface SkuFilter {
  platform?: Platform
  text?: string
}

function skuWhere(f: SkuFilter): SQL | undefined {
  const like = f.text ? `%${f.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null
  return and(
    f.platform ? eq(exchangeSkus.platform, f.platform) : undefined,
    like ? or(ilike(exchangeSkus.skuId, like), ilike(exchangeSkus.productName, like)) : undefined,
  )
}

export function searchSkus(db: DbOrTx, f: SkuFilter, sort: Sort<'id' | 'updated_at'>, offset: number, limit: number) {
  const col = sort.key === 'id' ? exchangeSkus.id : exchangeSkus.updatedAt
  return db
    .select()
    .from(exchangeSkus)
    .where(skuWhere(f))
    .orderBy(sort.desc ? desc(col) : asc(col), desc(exchangeSkus.id))
    .offset(offset)
    .limit(limit)
}

export async function countSkus(db: DbOrTx, f: SkuFilter) {
  const [row] = await db.select({ n: count() }).from(exchangeSkus).where(skuWhere(f))
  return row!.n
}

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
export function memberRecords(db: DbOrTx, memberId: number, before: { at: Date; id: number } | null, limit: number) {
  return db
    .select()
    .from(exchangeRecords)
    .where(
      and(
        eq(exchangeRecords.memberId, memberId),
        before
          ? sql`(${exchangeRecords.grantedAt}, ${exchangeRecords.id}) < (${before.at.toISOString()}::timestamptz, ${before.id})`
          : undefined,
      ),
    )
    .orderBy(desc(exchangeRecords.grantedAt), desc(exchangeRecords.id))
    .limit(limit)
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

export function searchRecords(
  db: DbOrTx,
  f: RecordFilter,
  sort: Sort<'id' | 'granted_at'>,
  offset: number,
  limit: number,
) {
  const col = sort.key === 'id' ? exchangeRecords.id : exchangeRecords.grantedAt
  return db
    .select()
    .from(exchangeRecords)
    .where(recordWhere(f))
    .orderBy(sort.desc ? desc(col) : asc(col), desc(exchangeRecords.id))
    .offset(offset)
    .limit(limit)
}

export async function countRecords(db: DbOrTx, f: RecordFilter) {
  const [row] = await db.select({ n: count() }).from(exchangeRecords).where(recordWhere(f))
  return row!.n
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
