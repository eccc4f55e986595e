import { useEffect, useState } from 'react'
import styles from '#app/components/checkout/checkout.module.css'
import { LoadError } from '#app/components/page-state/page-state.tsx'
import { useAuth } from '#app/lib/use-auth.ts'
import { formatTime } from '#app/lib/beijing-format.ts'
import { useApiGet } from '#app/lib/use-api-get.ts'
import type { z } from 'zod'
import type { ContractResponse } from '#server/modules/tuition/tuition.schema.ts'
import { RecordScreen } from './record-screen.tsx'
import own from './tuition.module.css'

export function meta() {
  return [{ title: '查看合同 - 自学' }]
}

type Answer = z.infer<typeof ContractResponse>['data']

/**
 * /contract/see/{id}: the signed contract, its record and hash, the frozen text to read, and its PDF (fetched with
 * the member's token) to open or download. Phones' browsers do not show a PDF inside a page, so no frame.
 */
export default function ContractView() {
  return (
    <RecordScreen
      title="查看合同"
      backTo="/contract"
      reason="登录后查看合同"
      missing="请从“我的合同”中选择要查看的合同"
    >
      {(id) => <Signed id={id} />}
    </RecordScreen>
  )
}

function Signed({ id }: { id: number }) {
  const got = useApiGet<Answer>('/contract', { member: true, query: { id } })
  const { state } = got
  const { token } = useAuth()
  const [pdf, setPdf] = useState<string | null>(null)
  const signed = state.status === 'ready' && state.data.contract?.signed
  useEffect(() => {
    if (!signed) return
    let url: string | null = null
    void fetch(`/api/contract/see?id=${id}`, { headers: { 'ZXB-Token': token ?? '' } })
      .then((r) => (r.ok && r.headers.get('content-type') === 'application/pdf' ? r.blob() : null))
      .then((b) => {
        if (!b) return
        url = URL.createObjectURL(b)
        setPdf(url)
      })
    return () => {
      if (url) URL.revokeObjectURL(url)
    }
  }, [id, signed, token])

  if (state.status === 'loading') return <p className={styles.muted}>加载中…</p>
  if (state.status === 'error')
    return <LoadError message={state.code === 404 ? '合同不存在' : state.message} onRetry={got.retry} />
  const c = state.data.contract!
  if (!c.signed) return <LoadError message="合同尚未签署" />
  return (
    <div className={styles.body}>
      <section className={styles.card} aria-label="签署信息">
        <h2 className={styles.cardTitle}>{c.title}</h2>
        <p className={styles.muted}>
          {c.real_name} 于 {formatTime(c.signed_at)} 签署
        </p>
        <p className={own.hash}>SHA-256：{c.sha256}</p>
        {pdf ? (
          <div className={styles.actions}>
            <a href={pdf} target="_blank" rel="noreferrer" className={styles.secondaryButton}>
              打开 PDF
            </a>
            <a href={pdf} download={`合同-${c.id}.pdf`} className={styles.linkButton}>
              下载合同 PDF
            </a>
          </div>
        ) : null}
      </section>
      <section className={styles.card} aria-label="合同全文">
        <div className={own.contractText} tabIndex={0}>
          {c.text}
        </div>
      </section>
    </div>
  )
}
