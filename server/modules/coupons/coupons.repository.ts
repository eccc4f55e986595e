import { and, asc, desc, eq, gt, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { containsText, selectList } from '#server/db/list.ts'
import { eqIfGiven, inPeriod, rowsBy, withinWindow } from '#server/db/rows.ts'
import type { StatementPart } from '#server/db/prepared.ts'
import { couponTemplates, memberCoupons } from '#server/db/schema/coupons.ts'

export type CouponTemplateRow = typeof couponTemplates.$inferSelect
export type MemberCouponRow = typeof memberCoupons.$inferSelect

/** A template found, added or changed by id. */
export const templateRows = rowsBy(couponTemplates, couponTemplates.id)
export const { insert: insertMemberCoupon } = rowsBy(memberCoupons, memberCoupons.id)

/** Templates a member may claim now: active, inside the claim window, not sold out. */
export async function listClaimable(db: DbOrTx, now: Date) {
  const at = now.toISOString()
  return db
    .select()
    .from(couponTemplates)
    .where(
      and(
        eq(couponTemplates.active, true),
        withinWindow(couponTemplates.claimFrom, couponTemplates.claimTo, now),
        or(isNull(couponTemplates.validTo), sql`${couponTemplates.validTo} > ${at}::timestamptz`),
        or(isNull(couponTemplates.totalLimit), sql`${couponTemplates.claimedCount} < ${couponTemplates.totalLimit}`),
      ),
    )
    .orderBy(asc(couponTemplates.id))
    .limit(100)
}

/**
 * Takes one of a template's coupons, if it is claimable now and not sold out, in one conditional update that also
 * locks the template row (so a member's concurrent claims are counted one after the other). Null: not claimable.
 */
export async function takeClaimSlot(db: DbOrTx, id: number, now: Date) {
  const at = now.toISOString()
  const [row] = await db
    .update(couponTemplates)
    .set({ claimedCount: sql`${couponTemplates.claimedCount} + 1` })
    .where(
      and(
        eq(couponTemplates.id, id),
        eq(couponTemplates.active, true),
        or(isNull(couponTemplates.claimFrom), sql`${couponTemplates.claimFrom} <= ${at}::timestamptz`),
        or(isNull(couponTemplates.claimTo), sql`${couponTemplates.claimTo} > ${at}::timestamptz`),
        or(isNull(couponTemplates.validTo), sql`${couponTemplates.validTo} > ${at}::timestamptz`),
        or(isNull(couponTemplates.totalLimit), sql`${couponTemplates.claimedCount} < ${couponTemplates.totalLimit}`),
      ),
    )
    .returning()
  return row ?? null
}

export async function countClaims(db: DbOrTx, templateId: number, memberId: number) {
  return db.$count(memberCoupons, and(eq(memberCoupons.templateId, templateId), eq(memberCoupons.memberId, memberId)))
}

/** A member's coupons with their templates, newest first. */
export async function listMemberCoupons(db: DbOrTx, memberId: number) {
  return db
    .select({ coupon: memberCoupons, template: couponTemplates })
    .from(memberCoupons)
    .innerJoin(couponTemplates, eq(couponTemplates.id, memberCoupons.templateId))
    .where(eq(memberCoupons.memberId, memberId))
    .orderBy(desc(memberCoupons.id))
    .limit(200)
}

/** The member's coupons that can be used now (available, not expired), with their templates. */
export async function usableCoupons(db: DbOrTx, memberId: number, now: Date, heldBy?: number) {
  const state = eq(memberCoupons.state, 'available')
  return db
    .select({ coupon: memberCoupons, template: couponTemplates })
    .from(memberCoupons)
    .innerJoin(couponTemplates, eq(couponTemplates.id, memberCoupons.templateId))
    .where(
      and(
        eq(memberCoupons.memberId, memberId),
        heldBy === undefined
          ? state
          : or(state, and(eq(memberCoupons.state, 'reserved'), eq(memberCoupons.orderId, heldBy))),
        gt(memberCoupons.expiresAt, now),
      ),
    )
    .orderBy(asc(memberCoupons.expiresAt), asc(memberCoupons.id))
}

/** Reserves a coupon for an order if it is still available and not expired; false when someone else took it. */
export async function reserveCoupon(db: DbOrTx, couponId: number, memberId: number, orderId: number, now: Date) {
  const rows = await db
    .update(memberCoupons)
    .set({ state: 'reserved', orderId })
    .where(
      and(
        eq(memberCoupons.id, couponId),
        eq(memberCoupons.memberId, memberId),
        eq(memberCoupons.state, 'available'),
        gt(memberCoupons.expiresAt, now),
      ),
    )
    .returning({ id: memberCoupons.id })
  return rows.length > 0
}

export async function markCouponUsed(db: DbOrTx, orderId: number, now: Date) {
  await db
    .update(memberCoupons)
    .set({ state: 'used', usedAt: now })
    .where(and(eq(memberCoupons.orderId, orderId), eq(memberCoupons.state, 'reserved')))
}

/** Gives back the coupon an order held or used (closed or refunded order). Returns how many. */
export async function returnCoupon(db: DbOrTx, orderId: number) {
  const rows = await db
    .update(memberCoupons)
    .set({ state: 'available', orderId: null, usedAt: null })
    .where(and(eq(memberCoupons.orderId, orderId), inArray(memberCoupons.state, ['reserved', 'used'])))
    .returning({ id: memberCoupons.id })
  return rows.length
}

/**
 * `markCouponUsed` as a part of the payment fast path's statement (orders.repository.ts `settlePendingOrder`,
 * which provides `paid_order`): the coupon the paid order reserved becomes used.
 */
export function couponUsePart(at: Date): StatementPart {
  return {
    name: 'coupon',
    ctes: sql`
    coupon_row as (
      update ${memberCoupons} c set state = 'used', used_at = ${at.toISOString()}::timestamptz
      from paid_order where paid_order.coupon_id is not null and c.order_id = paid_order.id and c.state = 'reserved'
      returning c.id
    )`,
    summary: sql`'{}'::jsonb`,
  }
}

// ---- Operators: the console's template and issued-coupon lists ----------------------------------------------

export interface TemplateFilter {
  active?: boolean
  text?: string
}

function templateConditions(f: TemplateFilter): SQL | undefined {
  return and(
    eqIfGiven(couponTemplates.active, f.active),
    f.text ? containsText(couponTemplates.name, f.text) : undefined,
  )
}

const templateSorts = { id: couponTemplates.id, claimed_count: couponTemplates.claimedCount }

const used = sql<number>`(select count(*)::int from ${memberCoupons} m
    where m.template_id = ${couponTemplates}.id and m.state = 'used')`

/** One page of templates with how many of each were used, and how many the filter matches. */
export const templateList = selectList(
  couponTemplates,
  { template: couponTemplates, used },
  templateConditions,
  templateSorts,
)

export interface IssuedFilter {
  templateId?: number
  memberId?: number
  /** expired: available but past its date; available: not expired yet. */
  state?: 'available' | 'reserved' | 'used' | 'expired'
  from?: Date
  before?: Date
  at: Date
}

/** What each state of the filter picks at a moment (expired and available split the available ones by date). */
const issuedStates: Record<NonNullable<IssuedFilter['state']>, (at: Date) => SQL | undefined> = {
  available: (at) => and(eq(memberCoupons.state, 'available'), gt(memberCoupons.expiresAt, at)),
  expired: (at) => and(eq(memberCoupons.state, 'available'), lte(memberCoupons.expiresAt, at)),
  reserved: () => eq(memberCoupons.state, 'reserved'),
  used: () => eq(memberCoupons.state, 'used'),
}

function issuedConditions(f: IssuedFilter): SQL | undefined {
  const m = memberCoupons
  return and(
    f.state === undefined ? undefined : issuedStates[f.state](f.at),
    eqIfGiven(m.templateId, f.templateId),
    eqIfGiven(m.memberId, f.memberId),
    inPeriod(m.claimedAt, f.from, f.before),
  )
}

const issuedSorts = { id: memberCoupons.id, claimed_at: memberCoupons.claimedAt, used_at: memberCoupons.usedAt }

/** One page of issued coupons with their template's name, and how many the filter matches. */
export const issuedList = selectList(
  memberCoupons,
  { coupon: memberCoupons, templateName: couponTemplates.name },
  issuedConditions,
  issuedSorts,
  { nullable: ['used_at'], join: { table: couponTemplates, on: eq(couponTemplates.id, memberCoupons.templateId) } },
)
