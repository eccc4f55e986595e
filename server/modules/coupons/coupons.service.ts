import type { z } from 'zod'
import type { Db, DbOrTx } from '#server/db/database.ts'
import type { StatementPart } from '#server/db/prepared.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import {
  countClaims,
  templateRows,
  insertMemberCoupon,
  listClaimable,
  listMemberCoupons,
  couponUsePart,
  markCouponUsed,
  reserveCoupon,
  returnCoupon,
  takeClaimSlot,
  usableCoupons,
  type CouponTemplateRow,
  type MemberCouponRow,
} from './coupons.repository.ts'
import { couponDiscountOn, type PricedLine } from './pricing.ts'
import type { TemplateCreate, TemplatePatch } from '#shared/api/admin-coupons.ts'
import { couponTerms, toTemplateView } from './coupon-views.ts'
import type { MemberCouponView } from './coupons.schema.ts'

const DAY = 86_400_000

function toMemberCouponView(c: MemberCouponRow, t: CouponTemplateRow, now: Date): z.infer<typeof MemberCouponView> {
  return {
    coupon_id: c.id,
    template_id: t.id,
    ...couponTerms(t),
    state: c.state === 'available' && c.expiresAt <= now ? 'expired' : c.state,
    claimed_at: c.claimedAt.toISOString(),
    expires_at: c.expiresAt.toISOString(),
  }
}

/** Coupon templates (operators), claiming (members) and a member's coupons. Checkout uses them in orders. */
export function createCouponService(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps
  return {
    /** Templates a member can claim now, with how many of each they hold already. */
    async claimable(memberId: number | null) {
      const at = now()
      const templates = await listClaimable(db, at)
      const mine = memberId ? await listMemberCoupons(db, memberId) : []
      return {
        list: templates.map((t) => ({
          ...toTemplateView(t),
          claimed_by_me: mine.filter((m) => m.template.id === t.id).length,
        })),
      }
    },

    /**
     * Claims one coupon of a template (POST /coupon): within its claim window, under its total limit (a conditional
     * update, so it never over-issues under concurrency) and under the per-member limit.
     */
    async claim(memberId: number, templateId: number) {
      const at = now()
      return db.transaction(async (tx) => {
        const t = await takeClaimSlot(tx, templateId, at)
        if (!t) {
          const found = await templateRows.find(tx, templateId)
          if (!found || !found.active) throw new AppError(Codes.NotFound, '优惠券不存在')
          if ((await countClaims(tx, templateId, memberId)) >= found.perMemberLimit)
            throw new AppError(Codes.CouponLimitReached)
          if (found.totalLimit !== null && found.claimedCount >= found.totalLimit)
            throw new AppError(Codes.CouponSoldOut)
          throw new AppError(Codes.CouponNotClaimable)
        }
        if ((await countClaims(tx, templateId, memberId)) >= t.perMemberLimit)
          throw new AppError(Codes.CouponLimitReached)
        const byDays = t.validDays ? at.getTime() + t.validDays * DAY : Number.POSITIVE_INFINITY
        const expiresAt = new Date(Math.min(byDays, t.validTo?.getTime() ?? Number.POSITIVE_INFINITY))
        const coupon = await insertMemberCoupon(tx, {
          templateId,
          memberId,
          state: 'available',
          claimedAt: at,
          expiresAt,
        })
        return toMemberCouponView(coupon, t, at)
      })
    },

    /** The member's coupons, newest first, optionally in one state (expired: available but past its date). */
    async mine(memberId: number, state?: z.infer<typeof MemberCouponView>['state']) {
      const at = now()
      const list = (await listMemberCoupons(db, memberId)).map((r) => toMemberCouponView(r.coupon, r.template, at))
      return { list: state ? list.filter((c) => c.state === state) : list }
    },

    /** An operator adds a template; recorded with who. */
    async createTemplate(staffId: number, input: TemplateCreate) {
      const at = now()
      const row = await templateRows.insert(db, {
        name: input.name,
        kind: input.kind,
        amountOffFen: input.kind === 'amount' ? (input.amount_off_fen ?? null) : null,
        percentOff: input.kind === 'percent' ? (input.percent_off ?? null) : null,
        maxOffFen: input.kind === 'percent' ? (input.max_off_fen ?? null) : null,
        minSpendFen: input.min_spend_fen,
        scope: input.scope,
        scopeIds: input.scope === 'all' ? [] : input.scope_ids,
        claimFrom: input.claim_from ? new Date(input.claim_from) : null,
        claimTo: input.claim_to ? new Date(input.claim_to) : null,
        validDays: input.valid_days ?? null,
        validTo: input.valid_to ? new Date(input.valid_to) : null,
        totalLimit: input.total_limit ?? null,
        perMemberLimit: input.per_member_limit,
        createdBy: staffId,
        createdAt: at,
        updatedAt: at,
      })
      return toTemplateView(row)
    },

    /** An operator changes a template: name, on/off, claim end, limits (never below what was claimed). */
    async patchTemplate(id: number, input: TemplatePatch) {
      const found = await templateRows.find(db, id)
      if (!found) throw new AppError(Codes.NotFound, '优惠券不存在')
      if (input.total_limit !== undefined && input.total_limit !== null && input.total_limit < found.claimedCount) {
        throw new AppError(Codes.BadRequest, `总量不能少于已领取的 ${found.claimedCount} 张`, { field: 'total_limit' })
      }
      const row = await templateRows.update(db, id, {
        name: input.name,
        active: input.active,
        claimTo: input.claim_to === undefined ? undefined : input.claim_to === null ? null : new Date(input.claim_to),
        totalLimit: input.total_limit,
        perMemberLimit: input.per_member_limit,
        updatedAt: now(),
      })
      return toTemplateView(row!)
    },
  }
}

export type CouponService = ReturnType<typeof createCouponService>

// ---- Coupons at checkout, payment and refund (server/use-cases): functions that take `tx` run in its transaction

export type { PricedLine } from './pricing.ts'

/** A coupon of the member's as checkout offers it: what it takes off these lines. */
export interface CouponOption {
  couponId: number
  name: string
  expiresAt: Date
  discountFen: number
}

/**
 * The member's coupons usable now that take something off `lines` (the courses of an order at the price each sells
 * for in it), best first: the largest discount, then the one expiring first. `heldBy`: an order whose reserved
 * coupon counts as usable too (a pending order that checking out the same purchase again would close).
 */
export async function couponOptions(
  tx: DbOrTx,
  memberId: number,
  lines: PricedLine[],
  at: Date,
  heldBy?: number,
): Promise<CouponOption[]> {
  return (await usableCoupons(tx, memberId, at, heldBy))
    .map((u) => ({
      couponId: u.coupon.id,
      name: u.template.name,
      expiresAt: u.coupon.expiresAt,
      discountFen: couponDiscountOn(u.template, lines),
    }))
    .filter((o) => o.discountFen > 0)
    .sort((x, y) => y.discountFen - x.discountFen || x.expiresAt.getTime() - y.expiresAt.getTime())
}

/** Reserves a coupon for a pending order if it is still available and not expired; false when it is not. */
export function reserveCouponForOrder(tx: DbOrTx, couponId: number, memberId: number, orderId: number, at: Date) {
  return reserveCoupon(tx, couponId, memberId, orderId, at)
}

/** The coupon an order reserved becomes used (the order was paid). */
export function useOrderCoupon(tx: DbOrTx, orderId: number, at: Date) {
  return markCouponUsed(tx, orderId, at)
}

/** Gives back the coupon an order held or used (the order closed or was refunded); returns how many (0 or 1). */
export function returnOrderCoupon(tx: DbOrTx, orderId: number) {
  return returnCoupon(tx, orderId)
}

/** `useOrderCoupon` as this module's part of the payment fast path's single statement (orders `settlePendingOrder`). */
export function couponUseInSettlement(at: Date): StatementPart {
  return couponUsePart(at)
}

/** The operators' template and issued-coupon lists (coupon-admin.ts). */
export { createCouponAdmin, type CouponAdmin } from './coupon-admin.ts'
