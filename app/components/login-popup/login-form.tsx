import { useId, useRef, useState, type FormEvent, type InputHTMLAttributes, type ReactNode, type Ref } from 'react'
import { Link, useNavigate } from 'react-router'
import { api, ApiError } from '#app/lib/api.ts'
import { authStore, type UserInfo } from '#app/lib/auth-store.ts'
import { countdownLabel, useCountdown } from '#app/lib/countdown.ts'
import { currentPath } from '#app/lib/events.ts'
import { currentPlatform, inWechat } from '#app/lib/platform.ts'
import { toast } from '#app/lib/toast.ts'
import {
  CODE_MAX_LENGTH,
  PHONE_MAX_LENGTH,
  checkCode,
  checkPhone,
  digitsOnly,
  fieldForLoginCode,
  limitLength,
} from '#app/lib/validators.ts'
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
}

type Field = 'phone' | 'code'

const AGREE_FIRST = '请先阅读并同意《用户协议》和《隐私政策》'

/**
 * The phone-and-code login (spec 4, 5, 6, 8), shared by the popup and the /ke2 screen. The server enforces every
 * rule again; this form gives the same messages early and never sends while a request is in flight.
 */
export function LoginForm({ target, ke2 = false, onLoggedIn }: LoginFormProps) {
  const navigate = useNavigate()
  const ids = useId()
  const [phone, setPhone] = useState('')
  const [code, setCode] = useState('')
  const [invalid, setInvalid] = useState<Field | null>(null)
  const [sending, setSending] = useState(false)
  const [submitting, setSubmitting] = useState(false)
  /** Consent to the user agreement and privacy policy (PIPL): never ticked for the learner. */
  const [agreed, setAgreed] = useState(false)
  const countdown = useCountdown()
  const codeInput = useRef<HTMLInputElement>(null)
  // A ref as well as state: two taps in the same frame must not send twice.
  const inFlight = useRef(false)

  const fail = (message: string, field: Field | null) => {
    setInvalid(field)
    toast(message, { duration: FAILURE_MS })
  }

  const sendCode = async () => {
    if (sending || !countdown.canRequest) return
    const p = checkPhone(phone)
    setPhone(p.value)
    if (p.error) return fail(p.error, 'phone')
    setInvalid(null)
    setSending(true)
    try {
      await api.post('/send_code', { phone: p.value, ke2: ke2 ? 1 : 0 }, { quiet: true })
      countdown.start()
      toast('已发送验证码')
      codeInput.current?.focus()
    } catch (error) {
      if (error instanceof ApiError && error.kind !== 'login') fail(error.message, fieldForLoginCode(error.code))
    } finally {
      setSending(false)
    }
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (inFlight.current) return
    const p = checkPhone(phone)
    const c = checkCode(code)
    setPhone(p.value)
    setCode(c.value)
    if (p.error) return fail(p.error, 'phone')
    if (c.error) return fail(c.error, 'code')
    if (!agreed) return fail(AGREE_FIRST, null)
    setInvalid(null)
    inFlight.current = true
    setSubmitting(true)
    try {
      const answer = await api.post<{ token: string; expire_in: number }>(
        '/login',
        { phone: p.value, phone_code: c.value, platform: currentPlatform(), ke2: ke2 ? 1 : 0 },
        { quiet: true },
      )
      authStore.login(answer)
      const user = await api.get<UserInfo>('/userinfo', undefined, { quiet: true }).catch(() => null)
      if (user) authStore.update(user)
      const wechat = inWechat()
      const reload = !wechat && target === currentPath()
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
      else void navigate(target)
    } catch (error) {
      if (error instanceof ApiError && error.kind !== 'login') fail(error.message, fieldForLoginCode(error.code))
    } finally {
      inFlight.current = false
      setSubmitting(false)
    }
  }

  const wechat = () => {
    if (!inWechat()) return toast('请在微信内点击')
    if (!agreed) return toast(AGREE_FIRST, { duration: FAILURE_MS })
    startWechatLogin('snsapi_userinfo', target)
  }

  /** A field's new value; editing the field that was wrong clears its mark. */
  const edit = (field: Field, set: (value: string) => void) => (value: string) => {
    set(value)
    if (invalid === field) setInvalid(null)
  }

  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
      <DigitsField
        id={`${ids}-phone`}
        label="手机号"
        name="phone"
        type="tel"
        autoComplete="tel"
        maxLength={PHONE_MAX_LENGTH}
        placeholder={ke2 ? KE2_PLACEHOLDER : '请输入手机号'}
        value={phone}
        invalid={invalid === 'phone'}
        onChange={edit('phone', setPhone)}
      />
      <DigitsField
        id={`${ids}-code`}
        ref={codeInput}
        label="验证码"
        name="phone_code"
        type="text"
        autoComplete="one-time-code"
        maxLength={CODE_MAX_LENGTH}
        placeholder="请输入验证码"
        value={code}
        invalid={invalid === 'code'}
        onChange={edit('code', setCode)}
      >
        <button
          type="button"
          className={styles.codeButton}
          disabled={countdown.running || sending}
          onClick={() => void sendCode()}
          data-testid="send-code"
        >
          {sending ? '发送中…' : countdownLabel(countdown.left)}
        </button>
      </DigitsField>
      <label className={styles.agree}>
        <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />
        <span>
          我已阅读并同意
          <Link to="/agreement/user">《用户协议》</Link>和<Link to="/agreement/privacy">《隐私政策》</Link>
        </span>
      </label>
      <button type="submit" className={styles.submit} disabled={submitting} aria-busy={submitting}>
        {submitting ? '登录中…' : '登录'}
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

/** One of the form's digit fields: its label (for screen readers), the input cut to `maxLength`, what follows it. */
function DigitsField({
  id,
  ref,
  label,
  invalid,
  maxLength,
  onChange,
  children,
  ...input
}: {
  id: string
  ref?: Ref<HTMLInputElement>
  label: string
  invalid: boolean
  maxLength: number
  onChange: (value: string) => void
  children?: ReactNode
} & Required<Pick<InputHTMLAttributes<HTMLInputElement>, 'name' | 'type' | 'autoComplete' | 'placeholder' | 'value'>>) {
  return (
    <div className={invalid ? `${styles.field} ${styles.invalid}` : styles.field}>
      <label htmlFor={id} className="zx-visually-hidden">
        {label}
      </label>
      <input
        id={id}
        ref={ref}
        {...input}
        inputMode="numeric"
        pattern="[0-9]*"
        // No maxLength attribute: it would cut "+86 138-0013-8000" before the digits are picked out; the
        // handler keeps at most `maxLength` digits (spec 5).
        aria-invalid={invalid}
        onChange={(e) => onChange(limitLength(digitsOnly(e.target.value), maxLength))}
        className={styles.input}
      />
      {children}
    </div>
  )
}
