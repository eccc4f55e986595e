import Popup from 'antd-mobile/es/components/popup'
import { LoginForm } from './login-form.tsx'
import styles from './login-popup.module.css'

export interface LoginPopupProps {
  visible: boolean
  target: string
  ke2: boolean
  onClose: () => void
  onLoggedIn: () => void
}

/** The login sheet that showLogin opens anywhere (spec 2 and 4). Loaded on first use. */
export default function LoginPopup({ visible, target, ke2, onClose, onLoggedIn }: LoginPopupProps) {
  return (
    <Popup
      visible={visible}
      onMaskClick={onClose}
      onClose={onClose}
      position="bottom"
      bodyClassName={styles.body}
      destroyOnClose
    >
      <div
        className={styles.sheet}
        role="dialog"
        aria-modal="true"
        aria-labelledby="login-title"
        data-testid="login-popup"
      >
        <header className={styles.header}>
          <h2 id="login-title" className={styles.title}>
            {ke2 ? '已购课程登录' : '手机号登录'}
          </h2>
          <button type="button" className={styles.close} onClick={onClose} aria-label="关闭">
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </header>
        <p className={styles.hint}>
          {ke2 ? '用购买课程时的手机号登录，查看你的课程' : '未注册的手机号验证后将自动创建账号'}
        </p>
        <LoginForm target={target} ke2={ke2} onLoggedIn={onLoggedIn} />
      </div>
    </Popup>
  )
}
