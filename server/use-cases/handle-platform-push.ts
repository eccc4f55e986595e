import type { PlatformId, PlatformOrder } from '#server/integrations/platforms/platform.ts'
import type { DbOrTx } from '#server/db/database.ts'
import { firstPushMessage, orderLines, rememberPlatformOrder } from '#server/modules/exchange/exchange.service.ts'
import { PlatformNames } from '#shared/exchange-platforms.ts'
import type { ExchangeDeps } from './exchange-platform-order.ts'
import { revokePlatformOrderIn } from './revoke-platform-order.ts'

/** Remembers an order a platform reported (for the NotExchange lists), with its state. */
function rememberOrder(tx: DbOrTx, o: PlatformOrder, now: Date) {
  const refunded = o.lines.length > 0 && o.lines.every((l) => l.state === 'refunded')
  return rememberPlatformOrder(tx, {
    platform: o.platform,
    orderId: o.orderId,
    buyerPhone: o.buyerPhone,
    status: o.state === 'cancelled' ? 'cancelled' : refunded ? 'refunded' : 'paid',
    lines: orderLines(o),
    paidAt: o.paidAt,
    now,
  })
}

/**
 * An order as a platform reports it now (its push or the sync): remembered for the NotExchange lists; a cancelled
 * order or refunded line revokes exactly what it granted (revoking twice does nothing). Returns the records revoked.
 */
export async function applyReportedOrder(tx: DbOrTx, o: PlatformOrder, now: Date) {
  await rememberOrder(tx, o, now)
  const refunded = o.lines.filter((l) => l.state === 'refunded').map((l) => l.lineId)
  if (o.state !== 'cancelled' && refunded.length === 0) return []
  const reason = `${o.platform === 'douyin_shop' ? '抖店订单' : PlatformNames[o.platform]}已退款或取消`
  return revokePlatformOrderIn(tx, {
    platform: o.platform,
    orderId: o.orderId,
    lineIds: o.state === 'cancelled' ? null : refunded,
    reason,
    now,
  })
}

/**
 * A platform's push (POST /api/douyin/notify, /ksxd/notify, /wechatShop/notify): the signature is checked first (a
 * bad one changes nothing and is answered 400); a message id seen before is answered as the platform expects and
 * otherwise ignored (a replay); a refund revokes exactly what the refunded lines granted, with the reason. A push
 * that only names a changed order has it read back from the platform first. Returns the platform's answer.
 */
export async function handlePlatformPush(
  deps: ExchangeDeps,
  platform: PlatformId,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string,
  query: Record<string, string | undefined> = {},
): Promise<{ status: number; body: unknown }> {
  const adapter = deps.adapters[platform]
  if (!adapter?.checkPush) return { status: 404, body: { err_no: 404, err_tips: 'not configured' } }
  const check = adapter.checkPush(headers, rawBody, query)
  if (!check.ok) return { status: 400, body: { err_no: 400, err_tips: check.reason } }
  const readBack = new Map<string, PlatformOrder | null>()
  for (const e of check.events)
    if (e.kind === 'changed' && !readBack.has(e.orderId))
      readBack.set(e.orderId, await adapter.lookup({ kind: 'order', orderId: e.orderId }))
  const now = deps.now()
  await deps.db.transaction(async (tx) => {
    if (check.msgId && !(await firstPushMessage(tx, platform, check.msgId, now))) return
    for (const e of check.events) {
      if (e.kind === 'revoked')
        await revokePlatformOrderIn(tx, { platform, orderId: e.orderId, lineIds: e.lineIds, reason: e.reason, now })
      else if (e.kind === 'order') await rememberOrder(tx, e.order, now)
      else if (e.kind === 'changed') {
        const o = readBack.get(e.orderId)
        if (o?.ours) await applyReportedOrder(tx, o, now)
      }
    }
  })
  return check.answer
}
