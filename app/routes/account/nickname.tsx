import { useId, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { LoginRequired } from '#app/components/login-required/login-required.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { LoadError, Loading } from '#app/components/page-state/page-state.tsx'
import { api, ApiError } from '#app/lib/api.ts'
import { authStore, type UserInfo } from '#app/lib/auth-store.ts'
import { toast } from '#app/lib/toast.ts'
import { useProfile } from '#app/lib/use-profile.ts'
import { NICKNAME_MAX, checkNickname } from '#app/lib/validators.ts'
import styles from './profile.module.css'

export function meta() {
  return [{ title: '修改昵称 - 自学' }]
}

/** /headPortrait/dataName: change the nickname (1–20 characters after trimming; the server checks again). */
export default function ChangeNickname() {
  const { state, retry } = useProfile()
  const navigate = useNavigate()
  const inputId = useId()
  // null until the member types: the field shows the current nickname as soon as it is known.
  const [draft, setDraft] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  const user = state.status === 'ready' || state.status === 'loading' || state.status === 'error' ? state.user : null
  const value = draft ?? user?.nickname ?? ''

  const save = async (event: FormEvent) => {
    event.preventDefault()
    if (saving) return
    const checked = checkNickname(value)
    if (checked.error) return setProblem(checked.error)
    setProblem(null)
    setSaving(true)
    try {
      const profile = await api.post<UserInfo>('/center/updateMemberInfo', { nickname: checked.value }, { quiet: true })
      authStore.update(profile)
      toast('昵称已修改', { icon: 'success' })
      void navigate('/mine')
    } catch (error) {
      if (error instanceof ApiError && error.kind !== 'login') setProblem(error.message)
    } finally {
      setSaving(false)
    }
  }

  return (
    <div className="zx-page">
      <NavBar title="修改昵称" backTo="/headPortrait" />
      {state.status === 'pending' ? <Loading /> : null}
      {state.status === 'anonymous' ? (
        <LoginRequired reason="登录后可以修改昵称" target="/headPortrait/dataName" />
      ) : null}
      {state.status === 'loading' && !user ? <Loading /> : null}
      {state.status === 'error' && !user ? <LoadError message={state.message} onRetry={retry} /> : null}
      {user ? (
        <form className={styles.form} onSubmit={(e) => void save(e)} noValidate>
          <label htmlFor={inputId} className="zx-visually-hidden">
            昵称
          </label>
          <div className={problem ? `${styles.field} ${styles.invalid}` : styles.field}>
            <input
              id={inputId}
              name="nickname"
              className={styles.input}
              value={value}
              maxLength={NICKNAME_MAX}
              placeholder="请输入昵称"
              autoComplete="nickname"
              aria-invalid={problem !== null}
              aria-describedby={`${inputId}-help`}
              onChange={(e) => {
                setDraft(e.target.value)
                setProblem(null)
              }}
            />
            <span className="zx-caption">
              {[...value.trim()].length}/{NICKNAME_MAX}
            </span>
          </div>
          {problem ? (
            <p className={styles.error} role="alert">
              {problem}
            </p>
          ) : null}
          <p id={`${inputId}-help`} className={styles.help}>
            1–{NICKNAME_MAX} 个字，会显示在评论和学习群里
          </p>
          <button type="submit" className={styles.save} disabled={saving}>
            {saving ? '保存中…' : '保存'}
          </button>
        </form>
      ) : null}
    </div>
  )
}
