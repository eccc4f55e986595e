import { useEffect, useState } from 'react'
import { LOGIN_TOAST } from '#app/lib/login-toast.ts'
import { DownArrowIcon } from '#app/components/icons/line-icons.tsx'
import { toast } from '#app/lib/toast.ts'
import { handleWechatReturn } from '#app/lib/wechat-login.ts'
import styles from './wechat-host.module.css'

/**
 * A return from WeChat's authorization (spec 4, issue 10 §3), loaded only when the address carries `loginCallback`
 * (wechat-return.tsx): finishes it (sign-in or the open id) and in snapshot mode (a page opened from Moments:
 * WeChat gives only a virtual open id) shows a page that says to tap "使用完整服务". `replayed`: the login toast
 * was already shown again at start-up.
 */
export default function WechatHost({ replayed }: { replayed: boolean }) {
  const [snapshot, setSnapshot] = useState(false)

  useEffect(() => {
    void handleWechatReturn(window.location).then((result) => {
      if (result === 'login' && !replayed) toast(LOGIN_TOAST, { icon: 'success' })
      if (result === 'snapshot') setSnapshot(true)
    })
  }, [replayed])

  if (!snapshot) return null
  return (
    <div className={styles.snapshot} role="dialog" aria-modal="true" aria-labelledby="wx-snapshot-title">
      <div className={styles.card}>
        <h2 id="wx-snapshot-title" className={styles.title}>
          当前是朋友圈预览页
        </h2>
        <p className={styles.text}>预览页里不能登录、学习进度不会保存，也不能支付。</p>
        <p className={styles.text}>
          请点击屏幕<strong>下方</strong>的<strong>“使用完整服务”</strong>，即可正常使用。
        </p>
      </div>
      <div className={styles.pointer} aria-hidden="true">
        <span>使用完整服务</span>
        <DownArrowIcon size={40} weight={2.4} />
      </div>
    </div>
  )
}
