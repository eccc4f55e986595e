import type { z } from 'zod'
import type { CouponTemplateRow } from './coupons.repository.ts'
import type { CouponTemplateView } from './coupons.schema.ts'

// A template as the API shows it (members' claimable list, the operators' lists).

/** What a coupon takes off and on what (a template's terms, which its coupons carry). */
export function couponTerms(t: CouponTemplateRow) {
  return {
    name: t.name,
    kind: t.kind,
    amount_off_fen: t.amountOffFen,
    percent_off: t.percentOff,
    max_off_fen: t.maxOffFen,
    min_spend_fen: t.minSpendFen,
    scope: t.scope,
  }
}

export function toTemplateView(t: CouponTemplateRow): z.infer<typeof CouponTemplateView> {
  return {
    id: t.id,
    ...couponTerms(t),
    scope_ids: t.scopeIds,
    claim_from: t.claimFrom?.toISOString() ?? null,
    claim_to: t.claimTo?.toISOString() ?? null,
    valid_days: t.validDays,
    valid_to: t.validTo?.toISOString() ?? null,
    total_limit: t.totalLimit,
    per_member_limit: t.perMemberLimit,
    claimed_count: t.claimedCount,
    active: t.active,
  }
}
