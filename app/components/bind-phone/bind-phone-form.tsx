import { useId, useRef, useState, type FormEvent } from 'react'
import { api, ApiError } from '#app/lib/api.ts'
import { authStore, type UserInfo } from '#app/lib/auth-store.ts'
import { countdownLabel, useCountdown } from '#app/lib/countdown.ts'
import { currentPlatform } from '#app/lib/platform.ts'
import { toast } from '#app/lib/toast.ts'
import { CODE_MAX_LENGTH, PHONE_MAX_LENGTH, checkCode, checkPhone, limitLength } from '#app/lib/validators.ts'
import styles from './bind-phone-form.module.css'
import { sendStat } from '#app/lib/stat.ts'

type BindAnswer = UserInfo & { merged: boolean; token?: string; expire_in?: number }

const MERGE_NOTICE =
  '该手机号已有自学账号。验证后，两个账号将合并为一个：已购课程、订单、积分、学习进度和收藏都会保留，以后用微信或手机号登录都是同一个账号。'

/**
 * Binds a phone to the signed-in member (POST /bind_phone_send_code, /bind_phone; issue 10 §3), on /headPortrait
 * and wherever a phone is required (/ke2). When another member already holds the phone, the send step says so
 * and the form explains the merge before the code is entered; after a merge the answer carries the surviving
 * member's new token, which replaces the old one.
 */
export function BindPhoneForm({ onBound }: { onBound?: (user: UserInfo, merged: boolean) => void }) {
  const ids = useId()
  const [phone, setPhone] = useState('')
  const [code, setCode] = useState('')
  const [invalid, setInvalid] = useState<'phone' | 'code' | null>(null)
  const [merge, setMerge] = useState(false)
  const [sending, setSending] = useState(false)
  const [submitting, setSubmitting] = useState(false)
  const countdown = useCountdown()
  const codeInput = useRef<HTMLInputElement>(null)
  const inFlight = useRef(false)

  const fail = (message: string, field: 'phone' | 'code' | null) => {
    setInvalid(field)
    toast(message, { duration: 2000 })
  }

  const sendCode = async () => {
    if (sending || !countdown.canRequest) return
    const p = checkPhone(phone)
    setPhone(p.value)
    if (p.error) return fail(p.error, 'phone')
    setInvalid(null)
    setSending(true)
    try {
      const answer = await api.post<{ merge: boolean }>('/bind_phone_send_code', { phone: p.value }, { quiet: true })
      setMerge(answer.merge)
      countdown.start()
      toast('已发送验证码')
      codeInput.current?.focus()
    } catch (error) {
      if (error instanceof ApiError && error.kind !== 'login') fail(error.message, error.code === 433 ? 'phone' : null)
    } finally {
      setSending(false)
    }
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (inFlight.current) return
    const p = checkPhone(phone)
    const c = checkCode(code)
    if (p.error) return fail(p.error, 'phone')
    if (c.error) return fail(c.error, 'code')
    // The spec's bindPhone click statistic, from the bind button, as a beacon that never delays the binding.
    sendStat('bindPhone')
    inFlight.current = true
    setSubmitting(true)
    try {
      const answer = await api.post<BindAnswer>(
        '/bind_phone',
        { phone: p.value, phone_code: c.value, platform: currentPlatform() },
        { quiet: true },
      )
      const { merged, token, expire_in, ...profile } = answer
      if (token && expire_in) authStore.login({ token, expire_in }, profile)
      else authStore.update(profile)
      toast(merged ? '账号已合并' : '绑定成功', { icon: 'success' })
      onBound?.(profile, merged)
    } catch (error) {
      if (error instanceof ApiError && error.kind !== 'login')
        fail(error.message, error.code === 405 || error.code === 406 ? 'code' : error.code === 433 ? 'phone' : null)
    } finally {
      inFlight.current = false
      setSubmitting(false)
    }
  }

  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate aria-label="绑定手机号">
      <div className={invalid === 'phone' ? `${styles.field} ${styles.invalid}` : styles.field}>
        <label htmlFor={`${ids}-phone`} className="zx-visually-hidden">
          手机号
        </label>
        <input
          id={`${ids}-phone`}
          name="phone"
          type="tel"
          inputMode="numeric"
          autoComplete="tel"
          maxLength={PHONE_MAX_LENGTH}
          placeholder="请输入手机号"
          value={phone}
          aria-invalid={invalid === 'phone'}
          onChange={(e) => {
            setPhone(limitLength(e.target.value.replace(/\D/g, ''), PHONE_MAX_LENGTH))
            setMerge(false)
          }}
          className={styles.input}
        />
      </div>
      <div className={invalid === 'code' ? `${styles.field} ${styles.invalid}` : styles.field}>
        <label htmlFor={`${ids}-code`} className="zx-visually-hidden">
          验证码
        </label>
        <input
          id={`${ids}-code`}
          ref={codeInput}
          name="phone_code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={CODE_MAX_LENGTH}
          placeholder="请输入验证码"
          value={code}
          aria-invalid={invalid === 'code'}
          onChange={(e) => setCode(limitLength(e.target.value.replace(/\D/g, ''), CODE_MAX_LENGTH))}
          className={styles.input}
        />
        <button
          type="button"
          className={styles.codeButton}
          disabled={countdown.running || sending}
          onClick={() => void sendCode()}
          data-testid="bind-send-code"
        >
          {sending ? '发送中…' : countdownLabel(countdown.left)}
        </button>
      </div>
      {merge ? (
        <p className={styles.merge} role="note">
          {MERGE_NOTICE}
        </p>
      ) : null}
      <button type="submit" className={styles.submit} disabled={submitting} aria-busy={submitting}>
        {submitting ? '提交中…' : merge ? '验证并合并账号' : '绑定手机号'}
      </button>
    </form>
  )
}
