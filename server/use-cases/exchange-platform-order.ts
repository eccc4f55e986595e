import type { Db } from '#server/db/database.ts'
import type { BusinessEvents } from '#server/http/business-events.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { PlatformAdapters, PlatformLine, PlatformOrder } from '#server/integrations/platforms/platform.ts'
import { extendVipMembership, grantEntitlement } from '#server/modules/access/access.service.ts'
import { courseTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import {
  exchangeSourceRef,
  holderOf,
  keepRedeemRefs,
  orderRecords,
  readOrderRef,
  readShopOrderRef,
  recordExchange,
  skuMappings,
  type ExchangeRecordRow,
} from '#server/modules/exchange/exchange.service.ts'
import { memberPhones } from '#server/modules/members/members.service.ts'
import { ExchangeShops, type ExchangeShop } from '#shared/exchange-platforms.ts'

export interface ExchangeDeps {
  db: Db
  now: () => Date
  adapters: PlatformAdapters
  events?: Pick<BusinessEvents, 'emit'>
}

/** The shops a /…/order2course endpoint serves (shared/exchange-platforms.ts): Douyin's takes vouchers and shop orders. */
export type ShopGroup = ExchangeShop

/** The order or voucher inside what the buyer pasted, and the platform that knows it. */
function refAndAdapter(deps: ExchangeDeps, group: ShopGroup, pasted: string) {
  const ref = group === 'douyin' ? readOrderRef(pasted) : readShopOrderRef(group, pasted)
  if (!ref)
    throw new AppError(
      Codes.ExchangeNotFound,
      group === 'douyin'
        ? '没有找到订单号或券码，请粘贴抖音订单号或团购券码'
        : `没有找到订单号，请粘贴${ExchangeShops[group].name}订单号`,
    )
  const platform = group === 'douyin' ? (ref.kind === 'order' ? 'douyin_shop' : 'douyin_life') : group
  const adapter = deps.adapters[platform]
  if (!adapter) throw new AppError(Codes.ExchangeUnavailable)
  return { ref, adapter }
}

/** What an exchange answers: the order, the courses (and VIP days) it gave this member, and whether it did so now. */
async function answer(deps: ExchangeDeps, order: PlatformOrder, mine: ExchangeRecordRow[], already: boolean) {
  const granted = mine.filter((r) => r.status === 'granted')
  const titles = await courseTitlesByIds(
    deps.db,
    granted.flatMap((r) => (r.courseId === null ? [] : [r.courseId])),
  )
  return {
    platform: order.platform,
    order_id: order.orderId,
    already,
    courses: [...titles].map(([id, c]) => ({ id, title: c.title, cover: c.cover })),
    vip_days: granted.reduce((n, r) => n + (r.vipDays ?? 0), 0),
  }
}

/** Nothing left to exchange: this member's own earlier exchange (answered again), or someone else's. */
async function alreadyExchanged(deps: ExchangeDeps, memberId: number, order: PlatformOrder, fallback: AppError) {
  const records = await orderRecords(deps.db, order.platform, order.orderId)
  const mine = records.filter((r) => r.memberId === memberId)
  if (mine.length > 0) return answer(deps, order, mine, true)
  const other = records[0]
  if (!other) throw fallback
  throw new AppError(
    Codes.ExchangeTaken,
    `该订单已被 ${await holderOf(deps.db, other.memberId)} 兑换，每个订单只能兑换一次`,
  )
}

/**
 * POST /api/tiktok/order2course, /ksxd/, /xhs/, /wechatShop/ (issue 14 §2): the signed-in member exchanges a platform order or voucher for the
 * courses (or VIP days) its SKUs are mapped to. Reads the number out of what was pasted, looks it up at the platform,
 * checks it is our shop's, paid (the voucher unused), not refunded or cancelled, bought with the member's phone where
 * the platform tells, and that every line is mapped; then, in one transaction, records each line under the unique
 * key (platform, order, line), grants through the access module (source `exchange`) and redeems the voucher at the
 * platform (Douyin: certificate verify, retried as Douyin says). A failed redeem rolls the grant back; a commit that
 * fails after the redeem cancels it at Douyin (allowed within an hour). The same order again, by anyone, grants
 * nothing new: its own holder gets the same answer (`already`), anyone else is told who holds it (masked phone).
 */
export async function exchangePlatformOrder(deps: ExchangeDeps, memberId: number, group: ShopGroup, pasted: string) {
  const { ref, adapter } = refAndAdapter(deps, group, pasted)
  const shopName = ExchangeShops[group].name
  let order: PlatformOrder | null
  try {
    order = await adapter.lookup(ref)
  } catch {
    throw new AppError(Codes.ExchangePlatformFailed, `暂时无法查询${shopName}订单，请稍后重试`)
  }
  if (!order) throw new AppError(Codes.ExchangeNotFound)
  if (!order.ours) throw new AppError(Codes.ExchangeNotOurs)
  if (order.state === 'unpaid') throw new AppError(Codes.ExchangeNotPaid)

  const taken = new Set((await orderRecords(deps.db, order.platform, order.orderId)).map((r) => r.lineId))
  const open = order.lines.filter((l) => !taken.has(l.lineId))
  const usable = order.state === 'paid' ? open.filter((l) => l.state === 'ok') : []
  if (usable.length === 0) {
    const why =
      order.platform === 'douyin_life' && order.lines.length === 0
        ? new AppError(Codes.ExchangeVoucherUsed)
        : new AppError(Codes.ExchangeRefunded)
    return alreadyExchanged(deps, memberId, order, why)
  }

  if (order.buyerPhone) {
    const phone = (await memberPhones(deps.db, [memberId])).get(memberId)
    if (!phone) throw new AppError(Codes.ExchangeWrongPhone, '请先绑定下单时用的手机号，再来兑换')
    if (phone !== order.buyerPhone)
      throw new AppError(Codes.ExchangeWrongPhone, '这个订单不是用当前账号的手机号购买的，请用下单手机号登录后兑换')
  }

  const mappings = await skuMappings(
    deps.db,
    order.platform,
    usable.map((l) => l.skuId),
  )
  const unmapped = usable.find((l) => !mappings.has(l.skuId))
  if (unmapped)
    throw new AppError(
      Codes.ExchangeSkuUnmapped,
      `「${unmapped.productName || unmapped.skuId}」暂未关联课程，请联系客服处理`,
    )

  const now = deps.now()
  const found = order
  let redeemed: { lineId: string; redeemRef: string }[] = []
  let inserted: ExchangeRecordRow[]
  try {
    inserted = await deps.db.transaction(async (tx) => {
      const rows = await recordExchange(tx, {
        memberId,
        order: found,
        lines: usable.map((l) => ({ ...l, mapping: mappings.get(l.skuId)! })),
        now,
      })
      for (const r of rows) {
        if (r.courseId !== null)
          await grantEntitlement(tx, {
            memberId,
            courseId: r.courseId,
            source: 'exchange',
            sourceRef: exchangeSourceRef(r),
            expiresAt: null,
            now,
          })
        if (r.vipDays) await extendVipMembership(tx, memberId, r.vipDays, now)
      }
      if (rows.length > 0 && adapter.redeem) {
        const lines = rows.map((r): PlatformLine => usable.find((l) => l.lineId === r.lineId)!)
        const result = await adapter.redeem(found, lines)
        if (!result.ok) throw new AppError(Codes.ExchangePlatformFailed, `${shopName}核销失败：${result.reason}`)
        redeemed = rows.map((r) => ({ lineId: r.lineId, redeemRef: result.refs.get(r.lineId) ?? '' }))
        await keepRedeemRefs(
          tx,
          rows.map((r) => ({ id: r.id, ref: result.refs.get(r.lineId) ?? '' })),
        )
      }
      return rows
    })
  } catch (err) {
    // Redeemed at the platform but not granted here: give the voucher back (Douyin allows it within an hour).
    if (redeemed.length > 0) await adapter.undoRedeem?.(redeemed).catch(() => false)
    throw err
  }
  // Every line went to a concurrent exchange of the same order (the unique key decided).
  if (inserted.length === 0) return alreadyExchanged(deps, memberId, order, new AppError(Codes.ExchangeRefunded))
  deps.events?.emit({
    event: 'access.granted',
    member_id: memberId,
    source: 'exchange',
    ref: `${order.platform}:${order.orderId}`,
    courses: inserted.flatMap((r) => (r.courseId === null ? [] : [r.courseId])),
    vip_days: inserted.reduce((n, r) => n + (r.vipDays ?? 0), 0),
  })
  const mine = (await orderRecords(deps.db, order.platform, order.orderId)).filter((r) => r.memberId === memberId)
  return answer(deps, order, mine, false)
}
