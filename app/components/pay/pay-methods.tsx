import type { ProviderPayMethod } from '#app/lib/pay.ts'
import styles from '#app/components/checkout/checkout.module.css'
import { Section } from '#app/components/section/section.tsx'

const LABEL: Record<ProviderPayMethod, { name: string; note: string; icon: string; color: string }> = {
  wechat_jsapi: { name: '微信支付', note: '在微信内直接支付', icon: '微', color: '#09bb07' },
  wechat_h5: { name: '微信支付', note: '跳转微信完成支付', icon: '微', color: '#09bb07' },
  wechat_native: { name: '微信扫码支付', note: '用微信扫一扫付款', icon: '微', color: '#09bb07' },
  alipay_wap: { name: '支付宝', note: '跳转支付宝完成支付', icon: '支', color: '#1677ff' },
}

/** One choice of a radio card: its title, an optional note under it and an optional coloured icon. */
export interface RadioChoice<T> {
  value: T
  title: string
  note?: string | null
  icon?: { text: string; color: string }
}

/**
 * A card of choices, one radio row each (payment methods, Huabei periods): the section titled `title`, rows named
 * `name` for the form (the title's id is `<name>-title`).
 */
export function RadioRows<T extends string | number | null>({
  title,
  name,
  choices,
  value,
  onChange,
}: {
  title: string
  name: string
  choices: RadioChoice<T>[]
  value: T
  onChange: (v: T) => void
}) {
  const id = `${name}-title`
  return (
    <Section id={id} title={title} className={styles.card} titleClassName={styles.cardTitle}>
      <div role="radiogroup" aria-labelledby={id}>
        {choices.map((c) => (
          <label key={String(c.value)} className={styles.methodRow}>
            {c.icon ? (
              <span className={styles.methodIcon} style={{ background: c.icon.color }} aria-hidden="true">
                {c.icon.text}
              </span>
            ) : null}
            <span className={styles.methodText}>
              <span>{c.title}</span>
              {c.note ? <span className={styles.muted}>{c.note}</span> : null}
            </span>
            <input
              type="radio"
              name={name}
              value={String(c.value ?? '')}
              checked={value === c.value}
              onChange={() => onChange(c.value)}
              className={styles.radio}
            />
          </label>
        ))}
      </div>
    </Section>
  )
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
  const choices = methods.map((m) => ({
    value: m,
    title: LABEL[m].name,
    note: LABEL[m].note,
    icon: { text: LABEL[m].icon, color: LABEL[m].color },
  }))
  return <RadioRows title="支付方式" name="pay_method" choices={choices} value={value} onChange={onChange} />
}
