import { useState, type FormEvent } from 'react'
import { Link, useParams } from 'react-router'
import { AgreementCheck } from '#app/components/checkout/checkout-parts.tsx'
import styles from '#app/components/checkout/checkout.module.css'
import { MemberOnly } from '#app/components/login-required/member-only.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Empty, LoadError, Loading } from '#app/components/page-state/page-state.tsx'
import { api, ApiError } from '#app/lib/api.ts'
import { formatTime } from '#app/lib/beijing-format.ts'
import { countdownLabel, useCountdown } from '#app/lib/countdown.ts'
import { useApiGet } from '#app/lib/use-api-get.ts'
import { toast } from '#app/lib/toast.ts'
import type { z } from 'zod'
import type { ContractResponse } from '#server/modules/tuition/tuition.schema.ts'
import { idTypes } from '#shared/tuition-names.ts'
import { SignaturePad } from './signature-pad.tsx'
import own from './tuition.module.css'

export function meta() {
  return [{ title: '电子合同 - 自学' }]
}

type Answer = z.infer<typeof ContractResponse>['data']
type Contract = NonNullable<Answer['contract']>

/** /contract: the member's contracts; /contract/{id}: read the whole contract and sign it. */
export default function ContractScreen() {
  const { id } = useParams()
  return (
    <main className={styles.page}>
      <NavBar title={id ? '签署合同' : '我的合同'} backTo={id ? '/contract' : '/mine'} />
      <MemberOnly reason="登录后查看合同">
        <Contracts id={id ? Number(id) : null} />
      </MemberOnly>
    </main>
  )
}

function Contracts({ id }: { id: number | null }) {
  const got = useApiGet<Answer>('/contract', { member: true, query: id ? { id } : {} })
  const { state } = got
  if (state.status === 'loading') return <Loading />
  if (state.status === 'error')
    return <LoadError message={state.code === 404 ? '合同不存在' : state.message} onRetry={got.retry} />
  const { list, contract } = state.data
  if (contract) return <Sign contract={contract} onSigned={got.reload} />
  // The empty state of the other lists of /mine (orders): the words, and where contracts come from.
  if (list.length === 0)
    return (
      <div className={styles.body}>
        <Empty message="还没有合同，报名体系课后在这里签署" />
        <Link to="/ke?type=system" className={styles.secondaryButton}>
          看看体系课
        </Link>
      </div>
    )
  return (
    <div className={styles.body}>
      {list.map((c) => (
        <Link key={c.id} to={c.signed ? `/contract/see/${c.id}` : `/contract/${c.id}`} className={styles.card}>
          合同 {c.id} · {c.signed ? `已签署 ${formatTime(c.signed_at)}` : '待签署'}
        </Link>
      ))}
    </div>
  )
}

function Sign({ contract, onSigned }: { contract: Contract; onSigned: () => void }) {
  const [name, setName] = useState('')
  const [idType, setIdType] = useState<string>(idTypes[0])
  const [idNumber, setIdNumber] = useState('')
  const [code, setCode] = useState('')
  const [agreed, setAgreed] = useState(false)
  const [signature, setSignature] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const countdown = useCountdown()

  const sendCode = async () => {
    if (!countdown.canRequest) return
    try {
      const sent = await api.post<{ phone: string }>('/contract/send_code', {}, { quiet: true })
      countdown.start()
      toast(`验证码已发送至 ${sent.phone}`)
    } catch (e) {
      setError(e instanceof ApiError ? e.message : '验证码发送失败')
    }
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const missing = !name.trim()
      ? '请输入真实姓名'
      : contract.asks_id && !idNumber.trim()
        ? '请输入证件号码'
        : !code.trim()
          ? '请输入验证码'
          : !signature
            ? '请在签名区手写签名'
            : !agreed
              ? '请先阅读并同意合同条款'
              : null
    if (missing) return setError(missing)
    setBusy(true)
    setError(null)
    try {
      await api.post(
        '/contract/agree',
        {
          id: contract.id,
          code: code.trim(),
          real_name: name.trim(),
          ...(contract.asks_id && { id_type: idType, id_number: idNumber.trim() }),
          agree: true,
          signature,
        },
        { quiet: true },
      )
      toast('签署成功')
      onSigned()
    } catch (err) {
      setError(err instanceof ApiError ? err.message : '签署失败，请稍后再试')
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className={styles.body}>
      <section className={styles.card} aria-label="合同正文">
        <h2 className={styles.cardTitle}>{contract.title}</h2>
        <div className={own.contractText} tabIndex={0}>
          {contract.text}
        </div>
      </section>
      {contract.signed ? (
        <section className={`${styles.card} ${own.success}`}>
          <h2 className={styles.cardTitle}>合同已签署</h2>
          <p className={styles.muted}>
            {contract.real_name} 于 {formatTime(contract.signed_at)} 签署
          </p>
          <div className={styles.actions}>
            <Link to={`/contract/see/${contract.id}`} className={styles.secondaryButton}>
              查看合同文件
            </Link>
            <Link to={`/PayAmount?enrolment_id=${contract.enrolment_id}`} className={styles.linkButton}>
              去缴费
            </Link>
          </div>
        </section>
      ) : (
        <form className={styles.card} onSubmit={submit} noValidate aria-label="签署">
          <TextField label="真实姓名" value={name} onChange={setName} autoComplete="name" />
          {contract.asks_id ? (
            <>
              <label className={own.field}>
                <span className={own.label}>证件类型</span>
                <select className={own.input} value={idType} onChange={(e) => setIdType(e.target.value)}>
                  {idTypes.map((t) => (
                    <option key={t}>{t}</option>
                  ))}
                </select>
              </label>
              <TextField label="证件号码" value={idNumber} onChange={setIdNumber} />
            </>
          ) : null}
          <div className={own.field}>
            <label className={own.label} htmlFor="sign-code">
              短信验证码（发送至你的手机）
            </label>
            <div className={own.codeRow}>
              <input
                id="sign-code"
                className={own.input}
                value={code}
                onChange={(e) => setCode(e.target.value)}
                inputMode="numeric"
                maxLength={4}
                autoComplete="one-time-code"
              />
              <button
                type="button"
                className={own.codeButton}
                disabled={!countdown.canRequest}
                onClick={() => void sendCode()}
              >
                {countdownLabel(countdown.left)}
              </button>
            </div>
          </div>
          <div className={own.field}>
            <span className={own.label}>手写签名</span>
            <SignaturePad onChange={setSignature} />
          </div>
          <AgreementCheck agreed={agreed} onAgree={setAgreed}>
            <label htmlFor="agree">我已完整阅读上述合同，同意全部条款，并确认以电子签名方式签署</label>
          </AgreementCheck>
          {error ? (
            <p className={own.error} role="alert">
              {error}
            </p>
          ) : null}
          <div className={styles.actions}>
            <button type="submit" className={styles.button} disabled={busy}>
              {busy ? '正在签署…' : '确认签署'}
            </button>
          </div>
        </form>
      )}
    </div>
  )
}

/** A labelled text input of the signing form. */
function TextField(props: { label: string; value: string; onChange: (v: string) => void; autoComplete?: string }) {
  return (
    <label className={own.field}>
      <span className={own.label}>{props.label}</span>
      <input
        className={own.input}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        maxLength={30}
        autoComplete={props.autoComplete}
      />
    </label>
  )
}
