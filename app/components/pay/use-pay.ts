import { useCallback, useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { ApiError } from '#app/lib/api.ts'
import { createOrder, idempotencyKey, payWithBridge, redirectPath, resultPath, type Checkout } from '#app/lib/pay.ts'
import { toast } from '#app/lib/toast.ts'
import { inWechat } from '#app/lib/platform.ts'
import { resumablePay, rememberPayForOpenid, OPENID_REQUIRED, type PayPath } from './pay-openid.ts'

export type { PayPath }

/**
 * One pay button's flow: create (or reuse) the order with a fresh Idempotency-Key per tap, then hand over to
 * the provider. Orders already paid by coupon or points go straight to the result; JSAPI opens WeChat's sheet;
 * H5 and Alipay leave the page (the provider returns to /payRedirect); Native shows the QR (`qr`).
 */
export function usePay() {
  const navigate = useNavigate()
  const [paying, setPaying] = useState(false)
  const [qr, setQr] = useState<Checkout | null>(null)
  const busy = useRef(false)

  const pay = useCallback(
    async (path: PayPath, body: Record<string, unknown>) => {
      if (busy.current) return
      busy.current = true
      setPaying(true)
      let leaving = false
      try {
        const order = await createOrder(path, body, idempotencyKey())
        if (order.state === 'paid') {
          await navigate(resultPath(order.order_no))
          return
        }
        if (order.state !== 'pending') {
          toast('订单已关闭，请重新下单')
          return
        }
        if (order.jsapi) {
          const result = await payWithBridge(order.jsapi)
          if (result === 'ok') await navigate(redirectPath(order.order_no))
          else if (result === 'cancel') toast('已取消支付')
          else toast('无法调起微信支付，请稍后重试')
          return
        }
        const away = order.h5_url ?? order.redirect_url
        if (away) {
          leaving = true
          window.location.assign(away)
          return
        }
        if (order.code_url) {
          setQr(order)
          return
        }
        toast('暂时无法支付，请稍后重试')
      } catch (error) {
        if (error instanceof ApiError && error.code === OPENID_REQUIRED && inWechat()) {
          // No open id for JSAPI yet (signed in by phone): WeChat's silent authorization, back to this page,
          // which then pays this same checkout again (the pending order is reused, not duplicated).
          leaving = true
          rememberPayForOpenid(path, body)
          return
        }
        // The wrapper has already toasted the server's message (or opened the login popup).
        if (!(error instanceof ApiError)) toast('支付失败，请稍后重试')
      } finally {
        busy.current = false
        // Leaving for the provider's page: keep the button busy so a second tap does not start another order.
        if (!leaving) setPaying(false)
      }
    },
    [navigate],
  )

  // Back from the open-id round trip on the page that started it: pay the same checkout again, once.
  useEffect(() => {
    let cancelled = false
    void resumablePay().then((pending) => {
      if (pending && !cancelled) void pay(pending.path, pending.body)
    })
    return () => {
      cancelled = true
    }
  }, [pay])

  return { pay, paying, qr, closeQr: () => setQr(null) }
}
