import { Section } from '#app/components/section/section.tsx'
import styles from '#app/components/checkout/checkout.module.css'
import type { EnrolmentView } from '#server/modules/tuition/tuition.schema.ts'

type Huabei = NonNullable<EnrolmentView['huabei']>

/**
 * /PayAmount: Alipay Huabei instalments (花呗分期) where the tuition plan offers them: 不分期 or one of the plan's
 * periods, and who bears the fee. Choosing a period pays with Alipay (the only method that carries it).
 */
export function HuabeiChoice({
  huabei,
  value,
  onChange,
}: {
  huabei: Huabei
  value: number | null
  onChange: (periods: number | null) => void
}) {
  const fee = huabei.fee_payer === 'seller' ? '手续费由机构承担（免息）' : '手续费由你承担，以支付宝页面为准'
  const options = [null, ...huabei.periods]
  return (
    <Section id="huabei-title" title="花呗分期" className={styles.card} titleClassName={styles.cardTitle}>
      <div role="radiogroup" aria-labelledby="huabei-title">
        {options.map((n) => (
          <label key={n ?? 0} className={styles.methodRow}>
            <span className={styles.methodText}>
              <span>{n === null ? '不分期' : `花呗分 ${n} 期`}</span>
              {n === null ? null : <span className={styles.muted}>使用支付宝支付 · {fee}</span>}
            </span>
            <input
              type="radio"
              name="huabei_periods"
              value={n ?? 0}
              checked={value === n}
              onChange={() => onChange(n)}
              className={styles.radio}
            />
          </label>
        ))}
      </div>
    </Section>
  )
}
