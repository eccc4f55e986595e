import type { Db, DbOrTx } from '#server/db/database.ts'
import type { PlatformOrderLine } from '#server/db/schema/exchange.ts'
import { listing } from '#server/http/admin-list.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { idsOf } from '#server/http/present.ts'
import type { PlatformOrder } from '#server/integrations/platforms/platform.ts'
import { courseTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import { maskPhone, memberPhones } from '#server/modules/members/members.service.ts'
import type { ExchangeRecordQuery, ExchangeSkuCreate, ExchangeSkuEdit, ExchangeSkuQuery } from '#shared/api/exchange.ts'
import { PlatformNames, Platforms, type Platform } from '#shared/exchange-platforms.ts'
import {
  courseHasSku,
  deleteSku,
  findOrderRecords,
  findRecord,
  findRecordsByKeys,
  findSkus,
  firstPush,
  insertRecords,
  insertSku,
  memberRecords,
  phoneHasOrders,
  revokeOrderRecords,
  revokeRecordById,
  recordList,
  skuList,
  setRedeemRefs,
  unexchangedOrders,
  updateSku,
  type RecordRow,
  type SkuRow,
} from './exchange.repository.ts'

export { readOrderRef, readShopOrderRef } from './paste.ts'
export type { RecordRow as ExchangeRecordRow }

// Platform orders exchanged for courses (issue 14 §2): the SKU mappings operators keep, the exchange records with
// their unique key (platform, order, line), the orders platforms reported. The workflows over several modules
// (exchange → access → the platform) are server/use-cases/exchange-platform-order.ts and revoke-platform-order.ts.

/** A record's `entitlements.source_ref` (source 'exchange'): what revoking it finds again. */
export const exchangeSourceRef = (r: Pick<RecordRow, 'platform' | 'orderId' | 'lineId'>) =>
  `${r.platform}:${r.orderId}:${r.lineId}`

/**
 * The records behind these entitlements' `source_ref`s (`platform:order:line`, source 'exchange'), by source_ref:
 * the platform, the order, the state and, when revoked, why.
 */
export async function exchangeRecordsByRefs(db: DbOrTx, refs: string[]) {
  const keys = refs.flatMap((ref) => {
    const [platform, orderId, lineId] = ref.split(':')
    return (Platforms as readonly string[]).includes(platform ?? '') && orderId && lineId
      ? [{ platform: platform as Platform, orderId, lineId }]
      : []
  })
  const rows = await findRecordsByKeys(db, keys)
  return new Map(rows.map((r) => [exchangeSourceRef(r), { ...r, platformName: PlatformNames[r.platform] }]))
}

/** The mappings of these SKUs on one platform, by SKU id. */
export async function skuMappings(tx: DbOrTx, platform: Platform, skuIds: string[]) {
  return new Map((await findSkus(tx, platform, [...new Set(skuIds)])).map((m) => [m.skuId, m]))
}

/** Whether a course is on sale on this platform: a SKU of the platform is mapped to it (the /course/ks landing). */
export function soldOn(db: DbOrTx, platform: Platform, courseId: number) {
  return courseHasSku(db, platform, courseId)
}

/** The records of one order (every line anyone exchanged), oldest first. */
export function orderRecords(tx: DbOrTx, platform: Platform, orderId: string) {
  return findOrderRecords(tx, platform, orderId)
}

/**
 * Records the exchange of these lines for `memberId`, each with what its mapping grants. Lines exchanged already
 * (by anyone, also at this very moment) are left out: the unique key (platform, order, line) decides. Returns the
 * rows inserted; the caller grants exactly those.
 */
export function recordExchange(
  tx: DbOrTx,
  e: {
    memberId: number
    order: Pick<PlatformOrder, 'platform' | 'orderId'>
    lines: { lineId: string; skuId: string; productName: string; amountFen?: number | null; mapping: SkuRow }[]
    now: Date
  },
) {
  return insertRecords(
    tx,
    e.lines.map((l) => ({
      platform: e.order.platform,
      orderId: e.order.orderId,
      lineId: l.lineId,
      skuId: l.skuId,
      productName: l.productName,
      memberId: e.memberId,
      courseId: l.mapping.courseId,
      vipDays: l.mapping.vipDays,
      amountFen: l.amountFen ?? null,
      status: 'granted' as const,
      grantedAt: e.now,
    })),
  )
}

/** Keeps what the platform answered when it redeemed each record's line (a Douyin verify_id). */
export function keepRedeemRefs(tx: DbOrTx, refs: { id: number; ref: string }[]) {
  return setRedeemRefs(tx, refs)
}

/** Marks the granted records of an order (or of some lines) revoked, with why; returns those it revoked. */
export function revokeOrder(
  tx: DbOrTx,
  r: { platform: Platform; orderId: string; lineIds: string[] | null; reason: string; now: Date },
) {
  return revokeOrderRecords(tx, r)
}

/** Marks one record revoked (an operator's decision); null when unknown or revoked already. */
export function revokeRecord(tx: DbOrTx, id: number, reason: string, now: Date) {
  return revokeRecordById(tx, id, reason, now)
}

export function exchangeRecord(tx: DbOrTx, id: number) {
  return findRecord(tx, id)
}

/** The masked phone of whoever holds an order's exchange ("138****8000"), for "already exchanged by …". */
export async function holderOf(tx: DbOrTx, memberId: number) {
  const phone = (await memberPhones(tx, [memberId])).get(memberId)
  return phone ? maskPhone(phone) : `会员 ${memberId}`
}

/** Exchanges granted in [from, to) by Beijing day and platform (the staff's sales figures). */
export { exchangeFigures } from './exchange.repository.ts'

/** Remembers an order a platform reported (push or sync) for the NotExchange lists. */
export { upsertPlatformOrder as rememberPlatformOrder } from './exchange.repository.ts'

/** The platform's order lines as the NotExchange list keeps them. */
export const orderLines = (o: PlatformOrder): PlatformOrderLine[] =>
  o.lines.map((l) => ({ line_id: l.lineId, sku_id: l.skuId, product_name: l.productName }))

/** Records a push message id; false when it was handled before (a replay changes nothing). */
export function firstPushMessage(tx: DbOrTx, platform: Platform, msgId: string, now: Date) {
  return firstPush(tx, platform, msgId, now)
}

/** Whether a platform reported an order bought with this phone (the purchaser sign-in of /ke2 accepts it). */
export function boughtWithPhone(db: DbOrTx, phone: string) {
  return phoneHasOrders(db, phone)
}

/**
 * The member's unexchanged platform orders: paid orders the platforms reported with the member's phone that still
 * have a line nobody exchanged (GET /api/data/ttNotExchange). Each line says whether it is exchanged already.
 */
export async function unexchangedOrdersOf(db: DbOrTx, memberId: number, platforms: Platform[]) {
  const phone = (await memberPhones(db, [memberId])).get(memberId)
  if (!phone) return []
  const orders = await unexchangedOrders(db, phone, platforms, 50)
  const done = new Map<string, Set<string>>()
  for (const o of orders)
    done.set(
      `${o.platform}:${o.orderId}`,
      new Set((await findOrderRecords(db, o.platform, o.orderId)).map((r) => r.lineId)),
    )
  return orders.map((o) => ({
    platform: o.platform,
    order_id: o.orderId,
    paid_at: o.paidAt?.toISOString() ?? null,
    lines: o.lines.map((l) => ({
      line_id: l.line_id,
      product_name: l.product_name,
      exchanged: done.get(`${o.platform}:${o.orderId}`)!.has(l.line_id),
    })),
  }))
}

/** A record as members and operators see it. */
function recordView(r: RecordRow, titles: Map<number, { title: string }>) {
  return {
    id: r.id,
    kind: 'exchange' as const,
    platform: r.platform,
    platform_name: PlatformNames[r.platform],
    order_id: r.orderId,
    line_id: r.lineId,
    sku_id: r.skuId,
    product_name: r.productName,
    member_id: r.memberId,
    course_id: r.courseId,
    course_title: r.courseId === null ? null : (titles.get(r.courseId)?.title ?? null),
    vip_days: r.vipDays,
    status: r.status,
    granted_at: r.grantedAt.toISOString(),
    revoked_at: r.revokedAt?.toISOString() ?? null,
    revoke_reason: r.revokeReason,
  }
}

/**
 * A member's exchange records, newest first, each with the course it granted (or the VIP days), its state and,
 * when revoked, when and why (a platform refund, an operator): what /order4 lists next to redeem codes.
 */
export async function memberExchangeRecords(
  db: DbOrTx,
  memberId: number,
  limit = 100,
  before: { at: Date; id: number } | null = null,
) {
  const rows = await memberRecords(db, memberId, before, limit)
  const titles = await courseTitlesByIds(db, idsOf(rows, 'courseId'))
  return rows.map((r) => recordView(r, titles))
}

function skuView(m: SkuRow, titles: Map<number, { title: string }>) {
  return {
    id: m.id,
    platform: m.platform,
    sku_id: m.skuId,
    product_name: m.productName,
    course_id: m.courseId,
    course_title: m.courseId === null ? null : (titles.get(m.courseId)?.title ?? null),
    vip_days: m.vipDays,
    note: m.note,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
  }
}

const withTitles = async <T extends { courseId: number | null }>(db: DbOrTx, rows: T[]) =>
  courseTitlesByIds(db, idsOf(rows, 'courseId'))

/** The operators' side: SKU mappings (list, create, edit, delete) and the exchange records. */
export function createExchangeAdmin(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps
  const requireCourse = async (courseId: number | null) => {
    if (courseId !== null && !(await courseTitlesByIds(db, [courseId])).has(courseId))
      throw new AppError(Codes.NotFound, `课程 ${courseId} 不存在`, { field: 'course_id' })
  }
  const one = async (m: SkuRow | null, id: number) => {
    if (!m) throw new AppError(Codes.NotFound, `映射 ${id} 不存在`, { field: 'id' })
    return skuView(m, await withTitles(db, [m]))
  }
  return {
    /** SKU mappings as operators keep them (listedRecords): a page of them, adding, changing and deleting one. */
    skus: {
      list: async (q: ExchangeSkuQuery) => {
        const f = { platform: q.platform, text: q.q || undefined }
        return listing(skuList, db, q, f).page(async (rows) => {
          const titles = await withTitles(db, rows)
          return rows.map((m) => skuView(m, titles))
        })
      },
      /** Maps a SKU; Conflict when the platform maps it already. */
      create: async (body: ExchangeSkuCreate) => {
        await requireCourse(body.course_id)
        const at = now()
        const row = await insertSku(db, {
          platform: body.platform,
          skuId: body.sku_id,
          productName: body.product_name,
          courseId: body.course_id,
          vipDays: body.vip_days,
          note: body.note,
          createdAt: at,
          updatedAt: at,
        })
        if (!row)
          throw new AppError(Codes.Conflict, `${PlatformNames[body.platform]}的 SKU ${body.sku_id} 已有映射`, {
            field: 'sku_id',
          })
        return one(row, row.id)
      },
      /** Changes what a mapping grants (exchanges made before keep what they granted). */
      patch: async (id: number, body: ExchangeSkuEdit) => {
        await requireCourse(body.course_id)
        return one(
          await updateSku(db, id, {
            productName: body.product_name,
            courseId: body.course_id,
            vipDays: body.vip_days,
            note: body.note,
            updatedAt: now(),
          }),
          id,
        )
      },
      /** Deletes a mapping: later exchanges of that SKU are refused; earlier ones keep what they granted. */
      remove: async (id: number) => one(await deleteSku(db, id), id),
    },
    /** One page of exchange records with the member's masked phone and the course. */
    async records(q: ExchangeRecordQuery) {
      const f = { platform: q.platform, status: q.status, memberId: q.member_id, orderId: q.order_id || undefined }
      return listing(recordList, db, q, f).page(async (rows) => {
        const [titles, phones] = await Promise.all([withTitles(db, rows), memberPhones(db, idsOf(rows, 'memberId'))])
        return rows.map((r) => {
          const phone = phones.get(r.memberId)
          return { ...recordView(r, titles), member_phone: phone ? maskPhone(phone) : null }
        })
      })
    },
  }
}

export type ExchangeAdmin = ReturnType<typeof createExchangeAdmin>
