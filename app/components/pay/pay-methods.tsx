import type { ProviderPayMethod } from '#app/lib/pay.ts'
import styles from '#app/components/checkout/checkout.module.css'
import { Section } from '#app/components/section/section.tsx'

const LABEL: Record<ProviderPayMethod, { name: string; note: string; icon: string; color: string }> = {
  wechat_jsapi: { name: '微信支付', note: '在微信内直接支付', icon: '微', color: '#09bb07' },
  wechat_h5: { name: '微信支付', note: '跳转微信完成支付', icon: '微', color: '#09bb07' },
  wechat_native: { name: '微信扫码支付', note: '用微信扫一扫付款', icon: '微', color: '#09bb07' },
  alipay_wap: { name: '支付宝', note: '跳转支付宝完成支付', icon: '支', color: '#1677ff' },
}

/** The payment methods this browser can use, as a radio group. */
export function PayMethods({
  methods,
  value,
  onChange,
}: {
  methods: ProviderPayMethod[]
  value: ProviderPayMethod
  onChange: (m: ProviderPayMethod) => void
}) {
  return (
    <Section id="pay-method-title" title="支付方式" className={styles.card} titleClassName={styles.cardTitle}>
      <div role="radiogroup" aria-labelledby="pay-method-title">
        {methods.map((m) => (
          <label key={m} className={styles.methodRow}>
            <span className={styles.methodIcon} style={{ background: LABEL[m].color }} aria-hidden="true">
              {LABEL[m].icon}
            </span>
            <span className={styles.methodText}>
              <span>{LABEL[m].name}</span>
              <span className={styles.muted}>{LABEL[m].note}</span>
            </span>
            <input
              type="radio"
              name="pay_method"
              value={m}
              checked={value === m}
              onChange={() => onChange(m)}
              className={styles.radio}
            />
          </label>
        ))}
      </div>
    </Section>
  )
}
