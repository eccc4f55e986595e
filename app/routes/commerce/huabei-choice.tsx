import { RadioRows } from '#app/components/pay/pay-methods.tsx'
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
  const choices = [
    { value: null, title: '不分期' },
    ...huabei.periods.map((n) => ({ value: n, title: `花呗分 ${n} 期`, note: `使用支付宝支付 · ${fee}` })),
  ]
  return <RadioRows title="花呗分期" name="huabei_periods" choices={choices} value={value} onChange={onChange} />
}
