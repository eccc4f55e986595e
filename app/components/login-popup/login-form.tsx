import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { api } from '#app/lib/api.ts'
import { authStore, type UserInfo } from '#app/lib/auth-store.ts'
import { currentPath } from '#app/lib/events.ts'
import { currentPlatform, inWechat } from '#app/lib/platform.ts'
import { toast } from '#app/lib/toast.ts'
import { fieldForLoginCode } from '#app/lib/validators.ts'
import { PhoneCodeFields, phoneCodeFormClass, usePhoneCode } from '#app/components/phone-code/phone-code-fields.tsx'
import { announceLogin } from '#app/lib/login-toast.ts'
import { afterPhoneLoginInWechat, startWechatLogin } from '#app/lib/wechat-login.ts'
import styles from './login-form.module.css'

const KE2_PLACEHOLDER = '请输入购买课程时用的手机号'
const KE2_NOTE = '未绑定手机号的用户，请先在自学小程序中绑定手机号，再用该手机号登录。'
/** Failure messages stay 2 s (spec 8). */
const FAILURE_MS = 2000

export interface LoginFormProps {
  /** Where to go after logging in; the current page reloads when it is the target. */
  target: string
  /** Forced purchaser mode (spec 6): the purchase phone only, no WeChat. */
  ke2?: boolean
  /** Called once the login is stored, before leaving for the target (the popup closes here). */
  onLoggedIn?: () => void
  /**
   * The target is this screen and it shows the signed-in state by itself (/ke2 lists the member's orders at once):
   * no reload outside WeChat, so nothing the member starts there meanwhile is cut off.
   */
  stay?: boolean
}

const AGREE_FIRST = '请先阅读并同意《用户协议》和《隐私政策》'

/**
 * The phone-and-code login (spec 4, 5, 6, 8), shared by the popup and the /ke2 screen. The server enforces every
 * rule again; this form gives the same messages early and never sends while a request is in flight.
 */
export function LoginForm({ target, ke2 = false, onLoggedIn, stay = false }: LoginFormProps) {
  const navigate = useNavigate()
  const form = usePhoneCode()
  /** Consent to the user agreement and privacy policy (PIPL): never ticked for the learner. */
  const [agreed, setAgreed] = useState(false)

  const sendCode = () =>
    form.sendCode(async (phone) => {
      await api.post('/send_code', { phone, ke2: ke2 ? 1 : 0 }, { quiet: true })
    }, fieldForLoginCode)

  const agreedFirst = () => {
    if (!agreed) form.fail(AGREE_FIRST, null)
    return agreed
  }

  const login = async (phone: string, code: string) => {
    const answer = await api.post<{ token: string; expire_in: number }>(
      '/login',
      { phone, phone_code: code, platform: currentPlatform(), ke2: ke2 ? 1 : 0 },
      { quiet: true },
    )
    authStore.login(answer)
    const user = await api.get<UserInfo>('/userinfo', undefined, { quiet: true }).catch(() => null)
    if (user) authStore.update(user)
    const wechat = inWechat()
    const here = target === currentPath()
    const reload = !wechat && here && !stay
    // The popup closes at once; the toast stays readable 1.5 s before the page reloads or leaves, and shows
    // again when it comes back.
    onLoggedIn?.()
    await announceLogin(wechat || reload)
    if (wechat) {
      // Inside WeChat the phone login also fetches the open id (base scope), then returns to the target.
      afterPhoneLoginInWechat(target, window.location.search)
      return
    }
    if (reload) window.location.reload()
    else if (!(stay && here)) void navigate(target)
  }

  const wechat = () => {
    if (!inWechat()) return toast('请在微信内点击')
    if (!agreed) return toast(AGREE_FIRST, { duration: FAILURE_MS })
    startWechatLogin('snsapi_userinfo', target)
  }

  return (
    <form
      className={phoneCodeFormClass}
      onSubmit={(e) => void form.submit(e, login, fieldForLoginCode, agreedFirst)}
      noValidate
    >
      <PhoneCodeFields
        form={form.fields}
        codeInput={form.codeInput}
        phonePlaceholder={ke2 ? KE2_PLACEHOLDER : undefined}
        onSend={() => void sendCode()}
        sendTestId="send-code"
        quiet
      />
      <label className={styles.agree}>
        <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />
        <span>
          我已阅读并同意
          <Link to="/agreement/user">《用户协议》</Link>和<Link to="/agreement/privacy">《隐私政策》</Link>
        </span>
      </label>
      <button type="submit" className={styles.submit} disabled={form.submitting} aria-busy={form.submitting}>
        {form.submitting ? '登录中…' : '登录'}
      </button>
      {ke2 ? (
        <p className={styles.note}>{KE2_NOTE}</p>
      ) : (
        <div className={styles.others}>
          <p className={styles.divider}>
            <span>其他登录方式</span>
          </p>
          <button type="button" className={styles.wechat} onClick={wechat} aria-label="微信登录">
            <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
              <circle cx="16" cy="16" r="16" fill="#07c160" />
              <path
                d="M13.2 8.5c-3.9 0-7 2.6-7 5.8 0 1.8 1 3.4 2.6 4.5l-.6 2 2.3-1.2c.8.2 1.7.4 2.7.4h.5a5 5 0 0 1-.2-1.5c0-3 2.9-5.5 6.5-5.5h.5c-.5-2.6-3.4-4.5-7.3-4.5Zm-2.3 2.9a.9.9 0 1 1 0 1.8.9.9 0 0 1 0-1.8Zm4.7 0a.9.9 0 1 1 0 1.8.9.9 0 0 1 0-1.8Zm4.4 2.8c-3.1 0-5.6 2.1-5.6 4.7s2.5 4.7 5.6 4.7c.7 0 1.4-.1 2-.3l1.9 1-.5-1.6c1.4-.9 2.2-2.3 2.2-3.8 0-2.6-2.5-4.7-5.6-4.7Zm-1.9 2.3a.7.7 0 1 1 0 1.4.7.7 0 0 1 0-1.4Zm3.8 0a.7.7 0 1 1 0 1.4.7.7 0 0 1 0-1.4Z"
                fill="#fff"
              />
            </svg>
            <span>微信登录</span>
          </button>
        </div>
      )}
    </form>
  )
}
