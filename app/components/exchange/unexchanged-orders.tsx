import { useState } from 'react'
import styles from '#app/components/checkout/checkout.module.css'
import { Empty, Loaded } from '#app/components/page-state/page-state.tsx'
import { api, errorMessage } from '#app/lib/api.ts'
import { formatTime } from '#app/lib/beijing-format.ts'
import { useBrowserLoad } from '#app/lib/use-api-get.ts'
import type { ExchangeResult, UnexchangedOrder } from '#server/modules/exchange/exchange.schema.ts'
import type { ExchangeShop } from '#shared/api/exchange-shops.ts'
import { ExchangeResultCard } from './exchange-result.tsx'
import own from './exchange.module.css'

interface ShopOrder {
  shop: ExchangeShop
  order: UnexchangedOrder
}

/** Every shop's unexchanged orders of the member (each shop's NotExchange call), newest first. */
async function loadAll(shops: readonly ExchangeShop[], signal: AbortSignal): Promise<ShopOrder[]> {
  const parts = await Promise.all(
    shops.map(async (shop) => {
      const { list } = await api.get<{ list: UnexchangedOrder[] }>(shop.unexchangedPath, {}, { quiet: true, signal })
      return list.map((order) => ({ shop, order }))
    }),
  )
  return parts.flat().sort((a, b) => (b.order.paid_at ?? '').localeCompare(a.order.paid_at ?? ''))
}

/** One order the member may still exchange: the shop (when several are listed), what was bought, its number and when. */
function OrderRow({ shop, order, tagged }: ShopOrder & { tagged: boolean }) {
  const open = order.lines.filter((l) => !l.exchanged)
  return (
    <div className={own.order} data-testid="unexchanged-order">
      <div className={own.orderHead}>
        <span>{open.map((l) => l.product_name).join('、')}</span>
        {tagged ? <span className={own.shopTag}>{shop.name}</span> : null}
      </div>
      <div className={styles.muted}>
        订单号 {order.order_id}
        {order.paid_at ? ` · ${formatTime(order.paid_at)}` : ''}
      </div>
    </div>
  )
}

/**
 * The member's platform orders bought with their phone and not exchanged yet, from every shop of `shops`, with
 * "全部兑换": each order goes to its own shop's exchange endpoint; what each gave is shown, and an order refused
 * (an unmapped product, taken by someone else) says why without stopping the others. `version`: the caller
 * exchanged something itself, ask again. `studyLabel`: the results' link to each course (ExchangeResultCard).
 */
export function UnexchangedOrders({
  shops,
  title,
  version = 0,
  studyLabel,
}: {
  shops: readonly ExchangeShop[]
  title: string
  version?: number
  studyLabel?: string
}) {
  const [busy, setBusy] = useState(false)
  const [results, setResults] = useState<ExchangeResult[]>([])
  const [failures, setFailures] = useState<string[]>([])
  const pending = useBrowserLoad(`${shops.map((s) => s.key).join(',')}#${version}`, shops, loadAll, {
    member: true,
    errorText: '待兑换订单加载失败',
  })

  const exchangeAll = async (orders: ShopOrder[]) => {
    setBusy(true)
    const done: ExchangeResult[] = []
    const refused: string[] = []
    for (const { shop, order } of orders) {
      try {
        done.push(await api.post<ExchangeResult>(shop.exchangePath, { order_no: order.order_id }, { quiet: true }))
      } catch (err) {
        refused.push(`订单 ${order.order_id}：${errorMessage(err, '兑换失败，请稍后重试')}`)
      }
    }
    setResults(done)
    setFailures(refused)
    setBusy(false)
    pending.reload()
  }

  return (
    <>
      {results.map((r) => (
        <ExchangeResultCard key={`${r.platform}:${r.order_id}`} result={r} studyLabel={studyLabel} />
      ))}
      <section className={styles.card} aria-label="待兑换订单">
        <h2 className={styles.cardTitle}>{title}</h2>
        <Loaded of={pending}>
          {(list) =>
            list.length === 0 ? (
              <Empty message="没有待兑换的订单" />
            ) : (
              <>
                {list.map((o) => (
                  <OrderRow key={`${o.order.platform}:${o.order.order_id}`} {...o} tagged={shops.length > 1} />
                ))}
                <button type="button" className={styles.button} disabled={busy} onClick={() => void exchangeAll(list)}>
                  {busy ? '兑换中…' : `全部兑换（${list.length} 个订单）`}
                </button>
              </>
            )
          }
        </Loaded>
        {failures.map((f) => (
          <p key={f} className={own.failed} role="alert">
            {f}
          </p>
        ))}
      </section>
    </>
  )
}
