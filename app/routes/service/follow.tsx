import { QrScreen, type QrAnswer } from './qr-screen.tsx'
import styles from './qr-screen.module.css'

export function meta() {
  return [{ title: '关注公众号 - 自学' }]
}

/** GET /wechat/subscribe: the follow QR, and whether the member follows already (null: cannot tell). */
interface Subscribe extends QrAnswer {
  subscribed: boolean | null
}

/** /data/follow: the Official Account's follow QR, and whether the signed-in member follows it already. */
export default function Follow() {
  return (
    <QrScreen<Subscribe>
      title="关注公众号"
      path="/wechat/subscribe"
      alt="自学公众号关注二维码"
      status={(a) =>
        a.subscribed === true ? (
          <p className={styles.done}>你已关注公众号</p>
        ) : a.subscribed === false ? (
          <p className={styles.state}>你还没有关注公众号，扫码关注后不会错过课程提醒。</p>
        ) : null
      }
    />
  )
}
