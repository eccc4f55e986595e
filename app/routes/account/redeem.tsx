import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { CardRow } from '#app/components/checkout/card-row.tsx'
import styles from '#app/components/checkout/checkout.module.css'
import { MemberOnly } from '#app/components/login-required/member-only.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { api, ApiError } from '#app/lib/api.ts'
import { formatTime } from '#app/lib/beijing-format.ts'
import type { RedeemPreview, RedeemResult } from '#shared/api/redeem.ts'
import own from './redeem.module.css'

export function meta() {
  return [{ title: '兑换码 - 自学' }]
}

type Step = { kind: 'input' } | { kind: 'preview'; preview: RedeemPreview } | { kind: 'done'; result: RedeemResult }

/** The server's message for a refused code (a typo, a used code, the wait after too many wrong ones). */
const messageOf = (e: unknown) => (e instanceof ApiError ? e.message : '兑换失败，请稍后再试')

/**
 * /mine/redeem: type or paste a redeem code, see what it gives (GET /redeem_code), confirm (POST
 * /redeem_code/exchange), and start learning. Every refusal is shown under the input in the server's words.
 */
export default function Redeem() {
  return (
    <main className={styles.page}>
      <NavBar title="兑换码" backTo="/mine" />
      <MemberOnly reason="登录后使用兑换码">
        <RedeemFlow />
      </MemberOnly>
    </main>
  )
}

function RedeemFlow() {
  const [code, setCode] = useState('')
  const [step, setStep] = useState<Step>({ kind: 'input' })
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const run = async (fn: () => Promise<void>) => {
    setBusy(true)
    setError(null)
    try {
      await fn()
    } catch (e) {
      setError(messageOf(e))
    } finally {
      setBusy(false)
    }
  }

  const look = (e: FormEvent) => {
    e.preventDefault()
    if (!code.trim()) return setError('请输入兑换码')
    void run(async () => {
      const preview = await api.get<RedeemPreview>('/redeem_code', { data: code }, { quiet: true })
      setStep({ kind: 'preview', preview })
    })
  }

  const confirm = () =>
    void run(async () => {
      const result = await api.post<RedeemResult>('/redeem_code/exchange', { data: code }, { quiet: true })
      setStep({ kind: 'done', result })
    })

  const restart = () => {
    setCode('')
    setError(null)
    setStep({ kind: 'input' })
  }

  if (step.kind === 'done') return <Done result={step.result} onAgain={restart} />

  return (
    <div className={styles.body}>
      <form className={styles.card} onSubmit={look} aria-label="输入兑换码">
        <h2 className={styles.cardTitle}>输入兑换码</h2>
        <input
          className={own.input}
          value={code}
          onChange={(e) => {
            setCode(e.target.value)
            if (step.kind === 'preview') setStep({ kind: 'input' })
          }}
          placeholder="如 7KQ4-MX2D-9HTR"
          aria-label="兑换码"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
        />
        {error ? (
          <p className={own.error} role="alert">
            {error}
          </p>
        ) : (
          <p className={own.hint}>12 位字母和数字，不区分大小写，可带空格或短横线。</p>
        )}
        {step.kind === 'input' ? (
          <div className={styles.actions}>
            <button type="submit" className={styles.linkButton} disabled={busy}>
              {busy ? '正在查询…' : '查看可兑换内容'}
            </button>
          </div>
        ) : null}
      </form>

      {step.kind === 'preview' ? (
        <PreviewCard preview={step.preview} busy={busy} onConfirm={confirm} onCancel={restart} />
      ) : null}

      <p className={styles.notice}>
        兑换码由自学或合作方发放，每个兑换码只能按规定次数使用；兑换成功后课程立即开通，可在
        <Link to="/order4" className="zx-tapTarget">
          兑换记录
        </Link>
        中查看。
      </p>
    </div>
  )
}

function PreviewCard(props: { preview: RedeemPreview; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { preview } = props
  const allOwned = preview.courses.length > 0 && preview.courses.every((c) => c.owned)
  return (
    <section className={styles.card} aria-label="兑换内容">
      <h2 className={styles.cardTitle}>兑换码 {preview.code}</h2>
      {preview.vip_days ? <CardRow label="可兑换">VIP 会员 {preview.vip_days} 天</CardRow> : null}
      {preview.courses.length ? (
        <ul className={own.courses} aria-label="可兑换的课程">
          {preview.courses.map((c) => (
            <li key={c.id} className={styles.row}>
              <span className={styles.rowLabel}>《{c.title}》</span>
              {c.owned ? <span className={own.owned}>已拥有</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <CardRow label="有效期至">{formatTime(preview.valid_until)}</CardRow>
      {allOwned ? <p className={own.hint}>这些课程你都已拥有，无需兑换，兑换码可以留给别人使用。</p> : null}
      <div className={styles.actions}>
        <button type="button" className={styles.linkButton} disabled={props.busy || allOwned} onClick={props.onConfirm}>
          {props.busy ? '正在兑换…' : '确认兑换'}
        </button>
        <button type="button" className={styles.secondaryButton} onClick={props.onCancel}>
          换一个兑换码
        </button>
      </div>
    </section>
  )
}

function Done({ result, onAgain }: { result: RedeemResult; onAgain: () => void }) {
  const first = result.courses[0]
  return (
    <div className={styles.body}>
      <div className={styles.result} role="status">
        <span className={`${styles.resultIcon} ${styles.ok}`} aria-hidden="true">
          ✓
        </span>
        <p className={styles.resultTitle}>兑换成功</p>
        {result.courses.map((c) => (
          <p key={c.id} className={styles.muted}>
            《{c.title}》已开通
          </p>
        ))}
        {result.vip_days ? (
          <p className={styles.muted}>
            VIP 会员已增加 {result.vip_days} 天，有效期至 {formatTime(result.vip_expires_at)}
          </p>
        ) : null}
      </div>
      <div className={styles.actions}>
        {first ? (
          <Link to={`/course/${first.id}.html`} className={styles.linkButton}>
            去学习
          </Link>
        ) : (
          <Link to="/vip" className={styles.linkButton}>
            去看会员课程
          </Link>
        )}
        <Link to="/order4" className={styles.secondaryButton}>
          查看兑换记录
        </Link>
        <button type="button" className={styles.secondaryButton} onClick={onAgain}>
          继续兑换
        </button>
      </div>
    </div>
  )
}
