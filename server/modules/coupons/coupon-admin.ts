import type { Db } from '#server/db/database.ts'
import { listing } from '#server/http/admin-list.ts'
import { memberSummariesByIds } from '#server/modules/members/members.service.ts'
import type { IssuedCouponQuery, TemplateListQuery } from '#shared/api/admin-coupons.ts'
import { beijingDateTime, beijingDayFromText } from '#shared/time.ts'
import { issuedList, templateList } from './coupons.repository.ts'
import type { IssuedCoupon } from './coupons.schema.ts'
import { toTemplateView } from './coupon-views.ts'

/** The columns of the issued-coupons CSV export. */
const ISSUED_CSV_HEADER = [
  '券ID',
  '模板ID',
  '模板',
  '会员ID',
  '手机号',
  '状态',
  '订单ID',
  '领取时间',
  '到期时间',
  '使用时间',
]

const stateNames: Record<IssuedCoupon['state'], string> = {
  available: '未使用',
  reserved: '下单占用',
  used: '已使用',
  expired: '已过期',
}

/** One issued coupon's row of the CSV export (ISSUED_CSV_HEADER): Beijing times. */
function issuedCells(c: IssuedCoupon) {
  return [
    c.id,
    c.template_id,
    c.template_name,
    c.member_id,
    c.phone ?? '',
    stateNames[c.state],
    c.order_id ?? '',
    beijingDateTime(new Date(c.claimed_at)),
    beijingDateTime(new Date(c.expires_at)),
    c.used_at ? beijingDateTime(new Date(c.used_at)) : '',
  ]
}

/**
 * Coupons for the operators' console: templates with how many were issued and used, and the issued coupons by
 * template, state, member and claiming day (with CSV of what the filter shows).
 */
export function createCouponAdmin(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps

  function issuedFilter(q: IssuedCouponQuery) {
    return {
      templateId: q.template_id,
      memberId: q.member_id,
      state: q.state,
      from: q.from ? beijingDayFromText(q.from) : undefined,
      before: q.to ? beijingDayFromText(q.to, 1) : undefined,
      at: now(),
    }
  }

  async function issuedRows(rows: Awaited<ReturnType<typeof issuedList.page>>): Promise<IssuedCoupon[]> {
    const at = now()
    const who = await memberSummariesByIds(
      db,
      rows.map((r) => r.coupon.memberId),
    )
    return rows.map(({ coupon: c, templateName }) => ({
      id: c.id,
      template_id: c.templateId,
      template_name: templateName,
      member_id: c.memberId,
      phone: who.get(c.memberId)?.phone ?? null,
      nickname: who.get(c.memberId)?.nickname ?? '',
      state: c.state === 'available' && c.expiresAt <= at ? 'expired' : c.state,
      order_id: c.orderId,
      claimed_at: c.claimedAt.toISOString(),
      expires_at: c.expiresAt.toISOString(),
      used_at: c.usedAt?.toISOString() ?? null,
    }))
  }

  const issuedListing = (q: IssuedCouponQuery) => listing(issuedList, db, q, issuedFilter(q))

  return {
    /** One page of templates, on or off, by name, with issued (claimed) and used counts. */
    async templates(q: TemplateListQuery) {
      const filter = { active: q.active === undefined ? undefined : q.active === 'true', text: q.q || undefined }
      return listing(templateList, db, q, filter).page((rows) =>
        rows.map((r) => ({ ...toTemplateView(r.template), used_count: r.used })),
      )
    },

    /** Issued coupons: a page, or the CSV (ISSUED_CSV_HEADER) of every match. */
    issued: {
      page: (q: IssuedCouponQuery) => issuedListing(q).page(issuedRows),
      csv: (q: IssuedCouponQuery) =>
        issuedListing(q).csv(ISSUED_CSV_HEADER, async (rows) => (await issuedRows(rows)).map(issuedCells)),
    },
  }
}

export type CouponAdmin = ReturnType<typeof createCouponAdmin>
