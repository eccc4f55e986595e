import { useCallback, useEffect, useState } from 'react'
import type { PayPath } from '#app/components/pay/use-pay.ts'
import { LoadError, Loading } from '#app/components/page-state/page-state.tsx'
import { ApiError, api, errorMessage } from '#app/lib/api.ts'
import type { Preview } from '#app/lib/pay.ts'
import { PayFooter, PriceLines, usePayFlow } from './checkout-parts.tsx'

type Load =
  | { status: 'loading' }
  | { status: 'error'; message: string; code: number | null }
  | { status: 'ready'; preview: Preview }

/**
 * The price, coupon, points, method and pay button of a checkout that a page shows under its own product
 * section (a bundle, favourites bought together). Reloads the price whenever the coupon, the points switch or
 * `query` changes; `onError` lets the page explain a refusal in its own words (e.g. everything owned already).
 */
export function CheckoutPanel({
  previewPath,
  query,
  payPath,
  payBody,
  children,
  onError,
}: {
  previewPath: string
  query: Record<string, string | number>
  payPath: PayPath
  payBody: Record<string, unknown>
  /** Shown above the price lines once the price is known (e.g. the list of what is bought). */
  children?: (preview: Preview) => React.ReactNode
  onError?: (code: number | null, message: string, retry: () => void) => React.ReactNode
}) {
  const [couponId, setCouponId] = useState<number | undefined>(undefined)
  const [usePoints, setUsePoints] = useState(false)
  const [load, setLoad] = useState<Load>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const flow = usePayFlow()
  const queryKey = JSON.stringify(query)

  useEffect(() => {
    const controller = new AbortController()
    api
      .get<Preview>(
        previewPath,
        {
          ...(JSON.parse(queryKey) as Record<string, unknown>),
          coupon_id: couponId,
          points: usePoints ? 100_000_000 : 0,
        },
        { quiet: true, signal: controller.signal },
      )
      .then((preview) => setLoad({ status: 'ready', preview }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return
        setLoad({
          status: 'error',
          message: errorMessage(error, '价格加载失败'),
          code: error instanceof ApiError ? error.code : null,
        })
      })
    return () => controller.abort()
  }, [previewPath, queryKey, couponId, usePoints, attempt])

  const { pay } = flow
  const onPay = useCallback(() => {
    if (load.status !== 'ready') return
    void pay(payPath, { ...payBody, coupon_id: load.preview.coupon_id, points: load.preview.points })
  }, [load, pay, payBody, payPath])

  if (load.status === 'loading') return <Loading label="正在计算价格…" />
  if (load.status === 'error') {
    const retry = () => setAttempt((n) => n + 1)
    return onError?.(load.code, load.message, retry) ?? <LoadError message={load.message} onRetry={retry} />
  }
  return (
    <>
      {children?.(load.preview)}
      <PriceLines
        preview={load.preview}
        coupon
        onCoupon={(id) => setCouponId(id)}
        usePoints={usePoints}
        onPoints={setUsePoints}
      />
      <PayFooter flow={flow} amountFen={load.preview.amount_fen} onPay={onPay} />
    </>
  )
}
