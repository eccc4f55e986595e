import Popup from 'antd-mobile/es/components/popup'
import { LoginForm } from './login-form.tsx'
import styles from './login-popup.module.css'
import { CloseIcon } from '#app/components/icons/line-icons.tsx'

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
        <header className="zx-spaceBetween">
          <h2 id="login-title" className="zx-title">
            {ke2 ? '已购课程登录' : '手机号登录'}
          </h2>
          <button type="button" className={styles.close} onClick={onClose} aria-label="关闭">
            <CloseIcon size={20} />
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
