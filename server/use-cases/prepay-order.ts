import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import {
  ProviderError,
  type PrepayResult,
  type ProviderName,
  type ProviderPayMethod,
} from '#server/integrations/payments/payments.ts'
import type { OrderRow } from '#server/modules/orders/orders.service.ts'
import { notifyUrl } from '#server/modules/payments/payments.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'

/**
 * Hands a pending order to its provider with its own method, price and deadline (the checkout, and "继续支付" on
 * an order placed before). The client pays with what comes back; a provider's refusal answers PaymentProviderFailed.
 */
export async function prepayOrder(
  deps: Pick<CommerceDeps, 'config' | 'providers'>,
  order: OrderRow,
  provider: ProviderName,
  payer: { quitPath: string; openid: string | null; clientIp: string },
): Promise<PrepayResult> {
  const { publicUrl } = deps.config
  try {
    return await deps.providers[provider].prepay({
      method: order.payMethod as ProviderPayMethod,
      orderNo: order.orderNo,
      description: order.title,
      amountFen: order.amountFen,
      expiresAt: order.expiresAt,
      notifyUrl: notifyUrl(publicUrl, provider),
      returnUrl: `${publicUrl}/payRedirect?order_no=${order.orderNo}`,
      quitUrl: `${publicUrl}${payer.quitPath}`,
      openid: payer.openid,
      clientIp: payer.clientIp,
    })
  } catch (err) {
    if (err instanceof ProviderError) throw new AppError(Codes.PaymentProviderFailed, undefined, undefined)
    throw err
  }
}
