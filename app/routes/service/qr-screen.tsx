import type { ReactNode } from 'react'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Loaded } from '#app/components/page-state/page-state.tsx'
import { inWechat } from '#app/lib/platform.ts'
import { useApiGet } from '#app/lib/use-api-get.ts'
import { useHydrated } from '#app/lib/use-auth.ts'
import styles from './qr-screen.module.css'

/** What a QR screen's call answers (GET /contact/qrcode, GET /wechat/subscribe). */
export interface QrAnswer {
  qr_image: string | null
  text: string
}

/**
 * A screen showing one QR code operators set in the console (客服设置): the code, their sentence, and how to scan it
 * on this phone (long-press inside WeChat; a screenshot elsewhere). `status` adds a line from the answer (whether
 * the member follows already).
 */
export function QrScreen<T extends QrAnswer>(props: {
  title: string
  path: string
  alt: string
  status?: (answer: T) => ReactNode
}) {
  const answer = useApiGet<T>(props.path, { errorText: '二维码加载失败' })
  const hydrated = useHydrated()
  const wechat = hydrated && inWechat()
  return (
    <div className="zx-screen">
      <NavBar title={props.title} backTo="/mine" />
      <main>
        <Loaded of={answer}>
          {(a) => (
            <section className={styles.card} aria-label={props.title}>
              {props.status?.(a)}
              {a.qr_image ? (
                <img className={styles.qr} src={a.qr_image} alt={props.alt} width={220} height={220} />
              ) : (
                <p className={styles.state}>二维码还没有设置好，请先联系在线客服。</p>
              )}
              <p className={styles.text}>{a.text}</p>
              {a.qr_image ? (
                <p className={styles.hint}>
                  {wechat ? '长按二维码，选择“识别图中二维码”' : '截图保存二维码，打开微信“扫一扫”，从相册选取'}
                </p>
              ) : null}
            </section>
          )}
        </Loaded>
      </main>
    </div>
  )
}
