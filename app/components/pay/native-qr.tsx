import { useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { api } from '#app/lib/api.ts'
import { resultPath, yuan, type Checkout, type Order } from '#app/lib/pay.ts'
import styles from '#app/components/checkout/checkout.module.css'

/**
 * WeChat Pay Native on a desktop: the order's code_url as a QR code to scan with WeChat, while the order is polled
 * (every 2 s) until it is paid. The QR library is loaded only here.
 */
export function NativeQr({ order, onClose }: { order: Checkout; onClose: () => void }) {
  const navigate = useNavigate()
  const [image, setImage] = useState<string | null>(null)
  const [failed, setFailed] = useState(false)

  useEffect(() => {
    let cancelled = false
    import('qrcode')
      .then((qr) => qr.toDataURL(order.code_url ?? '', { width: 220, margin: 1 }))
      .then((url) => {
        if (!cancelled) setImage(url)
      })
      .catch(() => {
        if (!cancelled) setFailed(true)
      })
    return () => {
      cancelled = true
    }
  }, [order.code_url])

  useEffect(() => {
    const timer = setInterval(() => {
      api
        .get<Order>('/pay/course', { order_no: order.order_no }, { quiet: true })
        .then((o) => {
          if (o.state === 'paid') void navigate(resultPath(o.order_no))
        })
        .catch(() => {})
    }, 2000)
    return () => clearInterval(timer)
  }, [navigate, order.order_no])

  return (
    <div className={styles.mask} role="dialog" aria-modal="true" aria-label="微信扫码支付">
      <div className={styles.sheet}>
        <p className="zx-sectionTitle">微信扫码支付 {yuan(order.amount_fen)}</p>
        <div className={styles.qrBox}>
          {image ? (
            <img src={image} alt="支付二维码" width={220} height={220} />
          ) : failed ? (
            <p className={styles.muted}>二维码生成失败，请使用下方链接</p>
          ) : (
            <p className={styles.muted}>二维码生成中…</p>
          )}
        </div>
        <p className={styles.muted}>请使用微信扫一扫完成支付，支付后本页自动跳转</p>
        {order.code_url && /^https?:/.test(order.code_url) ? (
          <a className={styles.linkButton} href={order.code_url} target="_blank" rel="noreferrer">
            在新窗口打开支付页
          </a>
        ) : null}
        <button type="button" className={styles.secondaryButton} onClick={onClose}>
          取消
        </button>
      </div>
    </div>
  )
}
