import { ProviderError, providerOf } from '#server/integrations/payments/payments.ts'
import type { OrderRow } from '#server/modules/orders/orders.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { confirmPayment } from './confirm-payment.ts'

/**
 * Asks the provider about one pending (or just closed) order and confirms a payment it reports exactly as a
 * notification would (notification id `query:<transaction id>`). 'error' when the provider could not be asked or
 * the payment was refused.
 */
export async function reconcileOrder(
  deps: CommerceDeps,
  order: Pick<OrderRow, 'orderNo' | 'payMethod'>,
): Promise<'paid' | 'unpaid' | 'error'> {
  const { providers, now } = deps
  const provider = providerOf(order.payMethod)
  if (!provider) return 'unpaid'
  try {
    const trade = await providers[provider].query(order.orderNo)
    if ((trade.state !== 'paid' && trade.state !== 'refunded') || !trade.transactionId || trade.amountFen === null)
      return 'unpaid'
    const answer = await confirmPayment(
      deps,
      provider,
      {
        notificationId: `query:${trade.transactionId}`,
        orderNo: order.orderNo,
        success: true,
        transactionId: trade.transactionId,
        amountFen: trade.amountFen,
        appId: trade.appId ?? providers[provider].appId,
        mchId: trade.mchId ?? providers[provider].mchId,
        paidAt: trade.paidAt ?? now(),
      },
      JSON.stringify({ source: 'order query', trade }),
    )
    return answer.accepted ? 'paid' : 'error'
  } catch (err) {
    if (err instanceof ProviderError) return 'error'
    throw err
  }
}
