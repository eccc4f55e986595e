import { useEffect, useId, useState, type ChangeEvent } from 'react'
import { Avatar } from '#app/components/avatar/avatar.tsx'
import { BindPhoneForm } from '#app/components/bind-phone/bind-phone-form.tsx'
import { LoginRequired } from '#app/components/login-required/login-required.tsx'
import { MenuList } from '#app/components/menu-list/menu-list.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { LoadError, Loading } from '#app/components/page-state/page-state.tsx'
import { api, ApiError } from '#app/lib/api.ts'
import { authStore, maskPhone, type UserInfo } from '#app/lib/auth-store.ts'
import { toast } from '#app/lib/toast.ts'
import { useProfile } from '#app/lib/use-profile.ts'
import styles from './profile.module.css'

export function meta() {
  return [{ title: '修改头像 - 自学' }]
}

/** What the server accepts (it checks again, by content): JPEG, PNG or WebP up to 5 MB. */
export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/webp']
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024

/** The reason a picked file cannot be an avatar, or null. */
export function avatarFileProblem(file: { type: string; size: number }): string | null {
  if (!AVATAR_TYPES.includes(file.type)) return '请选择 JPG、PNG 或 WebP 图片'
  if (file.size > AVATAR_MAX_BYTES) return '图片不能超过 5 MB'
  return null
}

/** /headPortrait: change the avatar (pick, upload, save), with the nickname and phone below. */
export default function ChangeAvatar() {
  const { state, retry } = useProfile()
  const inputId = useId()
  const [preview, setPreview] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview])

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file || saving) return
    const problem = avatarFileProblem(file)
    if (problem) return toast(problem)
    setPreview(URL.createObjectURL(file))
    setSaving(true)
    try {
      const form = new FormData()
      form.append('file', file)
      const uploaded = await api.post<{ url: string }>('/uploadImage', form, { timeoutMs: 60_000 })
      const profile = await api.post<UserInfo>('/center/updateMemberInfo', { avatar: uploaded.url })
      authStore.update(profile)
      toast('头像已更新', { icon: 'success' })
    } catch (error) {
      // The wrapper showed the reason; go back to the saved avatar.
      if (!(error instanceof ApiError)) toast('头像上传失败，请重试')
    } finally {
      setPreview(null)
      setSaving(false)
    }
  }

  return (
    <div className="zx-page">
      <NavBar title="修改头像" backTo="/mine" />
      {state.status === 'pending' ? <Loading /> : null}
      {state.status === 'anonymous' ? <LoginRequired reason="登录后可以修改头像和昵称" target="/headPortrait" /> : null}
      {state.status === 'loading' && !state.user ? <Loading /> : null}
      {state.status === 'error' && !state.user ? <LoadError message={state.message} onRetry={retry} /> : null}
      {(state.status === 'ready' || state.status === 'loading' || state.status === 'error') && state.user ? (
        <main>
          <section className={styles.avatarBox}>
            <Avatar src={preview ?? state.user.avatar} size={112} />
            <label
              htmlFor={inputId}
              className={saving ? `${styles.pickButton} ${styles.busy}` : styles.pickButton}
              aria-disabled={saving}
            >
              {saving ? '正在上传…' : '从相册选择'}
            </label>
            <input
              id={inputId}
              type="file"
              accept={AVATAR_TYPES.join(',')}
              className="zx-visually-hidden"
              disabled={saving}
              onChange={(e) => void pick(e)}
              data-testid="avatar-input"
            />
            <p className={styles.hint}>支持 JPG、PNG、WebP，不超过 5 MB</p>
          </section>
          <div className={styles.list}>
            <MenuList
              label="个人资料"
              items={[
                { to: '/headPortrait/dataName', label: '昵称', extra: state.user.nickname || '未设置' },
                state.user.phone
                  ? { to: '/mine', label: '手机号', extra: maskPhone(state.user.phone) }
                  : { to: '/headPortrait?bind=1#bind-phone', label: '手机号', extra: '未绑定，去绑定' },
              ]}
            />
          </div>
          {!state.user.phone ? (
            <section id="bind-phone" className={styles.bindPhone} aria-labelledby="bind-phone-title">
              <h2 id="bind-phone-title" className="zx-title">
                绑定手机号
              </h2>
              <p className={styles.hint}>绑定后可用手机号登录；该手机号已有账号时，验证后两个账号合并为一个。</p>
              <BindPhoneForm onBound={() => void retry()} />
            </section>
          ) : null}
        </main>
      ) : null}
    </div>
  )
}
