import { useId, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import form from '#app/components/bind-phone/bind-phone-form.module.css'
import styles from '#app/components/checkout/checkout.module.css'
import { MemberOnly } from '#app/components/login-required/member-only.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { api, ApiError } from '#app/lib/api.ts'
import { authStore } from '#app/lib/auth-store.ts'
import { countdownLabel, useCountdown } from '#app/lib/countdown.ts'
import { toast } from '#app/lib/toast.ts'
import { useProfile } from '#app/lib/use-profile.ts'
import { CODE_MAX_LENGTH, checkCode, limitLength } from '#app/lib/validators.ts'

export function meta() {
  return [{ title: '导出数据与注销账号 - 自学' }]
}

type Action = 'export' | 'delete'

/** Starts a download of `data` as a JSON file. */
function download(data: unknown, name: string) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/**
 * /mine/data (issue 10 §5, PIPL): the member downloads everything we hold about them as JSON, or deletes their
 * account; each after a fresh SMS code to their own phone. The page says what deletion removes and what the law
 * makes us keep (orders and payments, anonymised).
 */
export default function MyData() {
  const ids = useId()
  const navigate = useNavigate()
  const { state } = useProfile()
  const [action, setAction] = useState<Action | null>(null)
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)
  const countdown = useCountdown()
  const hasPhone = state.status === 'ready' ? Boolean(state.user?.phone) : true

  const send = async () => {
    if (busy || !countdown.canRequest) return
    setBusy(true)
    try {
      const sent = await api.post<{ phone: string }>('/account/send_code')
      countdown.start()
      toast(`验证码已发送至 ${sent.phone}`)
    } catch {
      // toasted by the wrapper
    } finally {
      setBusy(false)
    }
  }

  const confirm = async () => {
    const c = checkCode(code)
    if (c.error || !action) return toast(c.error ?? '请选择操作')
    setBusy(true)
    try {
      if (action === 'export') {
        const data = await api.post('/account/export', { code: c.value }, { quiet: true })
        download(data, `zixue-my-data-${new Date().toISOString().slice(0, 10)}.json`)
        toast('已导出你的数据', { icon: 'success' })
      } else {
        await api.post('/account/delete', { code: c.value }, { quiet: true })
        authStore.logout()
        toast('账号已注销', { icon: 'success' })
        void navigate('/')
      }
      setCode('')
      setAction(null)
    } catch (error) {
      if (error instanceof ApiError && error.kind !== 'login') toast(error.message)
    } finally {
      setBusy(false)
    }
  }

  const choose = (a: Action) => {
    setAction(a)
    setCode('')
  }

  return (
    <main className={styles.page}>
      <NavBar title="导出数据与注销账号" backTo="/mine" />
      <MemberOnly reason="登录后导出数据或注销账号" target="/mine/data">
        <div className={styles.body}>
          <section className={styles.card} aria-label="导出我的数据">
            <h2 className={styles.cardTitle}>导出我的数据</h2>
            <p className={styles.notice}>
              下载一份 JSON
              文件，包含我们保存的你的全部信息：个人资料、订单、已购课程与会员、学习进度和笔记、评论和点赞、收藏和关注、积分明细、登录记录。
            </p>
            <div className={styles.actions} style={{ padding: '12px 0 0' }}>
              <button type="button" className={styles.secondaryButton} onClick={() => choose('export')}>
                导出我的数据
              </button>
            </div>
          </section>
          <section className={styles.card} aria-label="注销账号">
            <h2 className={styles.cardTitle}>注销账号</h2>
            <p className={styles.notice}>
              注销后无法恢复：手机号、微信标识、昵称、头像、学习进度、笔记、收藏、关注、评论和点赞会被删除，所有登录状态立即失效，已购课程无法再观看。
              依《电子商务法》，订单、支付和退款记录以及积分明细需保存不少于三年：它们会去除你的手机号、昵称、头像和微信标识后保留，只记录交易本身。
            </p>
            <div className={styles.actions} style={{ padding: '12px 0 0' }}>
              <button type="button" className={styles.secondaryButton} onClick={() => choose('delete')}>
                注销账号
              </button>
            </div>
          </section>
          {!hasPhone ? (
            <section className={styles.card} aria-label="需要手机号">
              <p className={styles.notice}>导出和注销需要短信验证，请先绑定手机号。</p>
              <Link to="/bindPhone" className={styles.secondaryButton}>
                绑定手机号
              </Link>
            </section>
          ) : action ? (
            <section className={styles.card} aria-label="短信验证">
              <h2 className={styles.cardTitle}>{action === 'export' ? '验证后导出' : '验证后注销'}</h2>
              <div className={form.field}>
                <label htmlFor={`${ids}-code`} className="zx-visually-hidden">
                  验证码
                </label>
                <input
                  id={`${ids}-code`}
                  type="text"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={CODE_MAX_LENGTH}
                  placeholder="请输入验证码"
                  value={code}
                  onChange={(e) => setCode(limitLength(e.target.value.replace(/\D/g, ''), CODE_MAX_LENGTH))}
                  className={form.input}
                />
                <button
                  type="button"
                  className={form.codeButton}
                  disabled={countdown.running || busy}
                  onClick={() => void send()}
                >
                  {countdownLabel(countdown.left)}
                </button>
              </div>
              <button
                type="button"
                className={form.submit}
                style={{ width: '100%', marginTop: 12 }}
                disabled={busy}
                onClick={() => void confirm()}
              >
                {action === 'export' ? '验证并下载' : '验证并永久注销'}
              </button>
            </section>
          ) : null}
        </div>
      </MemberOnly>
    </main>
  )
}
