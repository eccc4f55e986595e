import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import {
  ProviderError,
  type PrepayResult,
  type ProviderName,
  type ProviderPayMethod,
} from '#server/integrations/payments/payments.ts'
import type { OrderRow } from '#server/modules/orders/orders.service.ts'
import { huabeiOfOrder } from '#server/modules/tuition/huabei.service.ts'
import { notifyUrl } from '#server/modules/payments/payments.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'

/**
 * Hands a pending order to its provider with its own method, price and deadline (the checkout, and "继续支付" on
 * an order placed before). The payer returns to the host they came from when it is trusted. The client pays with what comes back; a provider's refusal answers PaymentProviderFailed.
 */
export async function prepayOrder(
  deps: Pick<CommerceDeps, 'db' | 'config' | 'providers'>,
  order: OrderRow,
  provider: ProviderName,
  payer: { quitPath: string; openid: string | null; clientIp: string; origin?: string },
): Promise<PrepayResult> {
  const { publicUrl } = deps.config
  // Where the payer comes back to: the trusted host they came from (TRUSTED_HOSTS), else the public address.
  const back = payer.origin ?? publicUrl
  // A tuition payment paid in Huabei instalments (the choice the checkout recorded for its one pending order).
  const huabei = order.kind === 'tuition' && provider === 'alipay' ? await huabeiOfOrder(deps.db, order.target) : null
  try {
    return await deps.providers[provider].prepay({
      method: order.payMethod as ProviderPayMethod,
      orderNo: order.orderNo,
      description: order.title,
      amountFen: order.amountFen,
      expiresAt: order.expiresAt,
      notifyUrl: notifyUrl(publicUrl, provider),
      returnUrl: `${back}/payRedirect?order_no=${order.orderNo}`,
      quitUrl: `${back}${payer.quitPath}`,
      openid: payer.openid,
      clientIp: payer.clientIp,
      huabei,
    })
  } catch (err) {
    if (err instanceof ProviderError) throw new AppError(Codes.PaymentProviderFailed, undefined, undefined)
    throw err
  }
}
