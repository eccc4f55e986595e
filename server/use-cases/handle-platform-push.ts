import type { PlatformId, PlatformOrder } from '#server/integrations/platforms/platform.ts'
import type { DbOrTx } from '#server/db/database.ts'
import { firstPushMessage, orderLines, rememberPlatformOrder } from '#server/modules/exchange/exchange.service.ts'
import type { ExchangeDeps } from './exchange-platform-order.ts'
import { revokePlatformOrderIn } from './revoke-platform-order.ts'

/** Remembers an order a platform reported (for the NotExchange lists), with its state. */
export function rememberOrder(tx: DbOrTx, o: PlatformOrder, now: Date) {
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
 * A platform's push (POST /api/douyin/notify): the signature is checked first (a bad one changes nothing and is
 * answered 400); a message id seen before is answered as the platform expects and otherwise ignored (a replay);
 * a refund revokes exactly what the refunded lines granted, with the reason. Returns the platform's answer.
 */
export async function handlePlatformPush(
  deps: ExchangeDeps,
  platform: PlatformId,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string,
): Promise<{ status: number; body: unknown }> {
  const adapter = deps.adapters[platform]
  if (!adapter?.checkPush) return { status: 404, body: { err_no: 404, err_tips: 'not configured' } }
  const check = adapter.checkPush(headers, rawBody)
  if (!check.ok) return { status: 400, body: { err_no: 400, err_tips: check.reason } }
  const now = deps.now()
  await deps.db.transaction(async (tx) => {
    if (check.msgId && !(await firstPushMessage(tx, platform, check.msgId, now))) return
    for (const e of check.events) {
      if (e.kind === 'revoked')
        await revokePlatformOrderIn(tx, { platform, orderId: e.orderId, lineIds: e.lineIds, reason: e.reason, now })
      else if (e.kind === 'order') await rememberOrder(tx, e.order, now)
    }
  })
  return check.answer
}
