import { showLogin } from '#app/lib/events.ts'
import styles from './login-required.module.css'

/** What a member-only screen shows to an anonymous visitor: why, and the login button. */
export function LoginRequired({ reason, target }: { reason: string; target?: string }) {
  return (
    <div className="zx-messageBody">
      <svg viewBox="0 0 64 64" width="72" height="72" aria-hidden="true">
        <circle cx="32" cy="32" r="30" fill="var(--zx-color-primary-light)" />
        <rect x="20" y="29" width="24" height="18" rx="3" fill="var(--zx-color-primary)" />
        <path d="M25 29v-5a7 7 0 0 1 14 0v5" fill="none" stroke="var(--zx-color-primary)" strokeWidth="3.5" />
      </svg>
      <p className={styles.reason}>{reason}</p>
      <button type="button" className={styles.button} onClick={() => showLogin({ target })}>
        登录 / 注册
      </button>
    </div>
  )
}
