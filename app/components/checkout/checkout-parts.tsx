import { useCallback, useEffect, useState, type ReactNode } from 'react'
import { Link } from 'react-router'
import { NativeQr } from '#app/components/pay/native-qr.tsx'
import { PayMethods } from '#app/components/pay/pay-methods.tsx'
import { usePay, type PayPath } from '#app/components/pay/use-pay.ts'
import { showLogin } from '#app/lib/events.ts'
import { payMethodsFor, yuan, type Preview, type ProviderPayMethod } from '#app/lib/pay.ts'
import { Platform, currentPlatform } from '#app/lib/platform.ts'
import { toast } from '#app/lib/toast.ts'
import { useHydrated } from '#app/lib/use-auth.ts'
import { CardRow } from './card-row.tsx'
import styles from './checkout.module.css'

/** Opens the login popup once when a member-only checkout is opened anonymously. */
export function useAskLogin(hydrated: boolean, token: string | null) {
  useEffect(() => {
    if (hydrated && !token) showLogin()
  }, [hydrated, token])
}

/** The methods of this browser and the chosen one (decided after hydration: the server render cannot know). */
function usePayMethod() {
  const hydrated = useHydrated()
  const methods = hydrated ? payMethodsFor(currentPlatform()) : payMethodsFor(Platform.mobile)
  const [chosen, setMethod] = useState<ProviderPayMethod | null>(null)
  const method = chosen && methods.includes(chosen) ? chosen : methods[0]!
  return { methods, method, setMethod }
}

/**
 * A checkout's way to pay: this browser's methods and the chosen one, the agreement (kept here, so it survives the
 * pay bar giving way to "计算价格…"), and `pay(path, body)` with the chosen method (usePay). PayFooter draws it.
 */
export function usePayFlow() {
  const { methods, method, setMethod } = usePayMethod()
  const [agreed, setAgreed] = useState(false)
  const { pay, paying, qr, closeQr } = usePay()
  const payWith = useCallback(
    (path: PayPath, body: Record<string, unknown>) => pay(path, { ...body, pay_method: method }),
    [pay, method],
  )
  return { methods, method, setMethod, agreed, setAgreed, pay: payWith, paying, qr, closeQr }
}

type PayFlow = ReturnType<typeof usePayFlow>

/** Price lines: original price, coupon, points, and what is left to pay. */
export function PriceLines({
  preview,
  coupon,
  onCoupon,
  usePoints,
  onPoints,
}: {
  preview: Preview
  /** Course checkout only: the coupon picker. */
  coupon?: boolean
  onCoupon?: (id: number) => void
  usePoints: boolean
  onPoints: (on: boolean) => void
}) {
  return (
    <section className={styles.card} aria-label="价格明细">
      <CardRow label="商品金额">{yuan(preview.original_fen)}</CardRow>
      {coupon ? (
        <div className={styles.row}>
          <label htmlFor="coupon" className={styles.rowLabel}>
            优惠券
          </label>
          {preview.coupons.length === 0 ? (
            <span className={styles.muted}>暂无可用优惠券</span>
          ) : (
            <select
              id="coupon"
              className={styles.select}
              value={preview.coupon_id ?? 0}
              onChange={(e) => onCoupon?.(Number(e.target.value))}
            >
              {preview.coupons.map((c) => (
                <option key={c.coupon_id} value={c.coupon_id}>
                  {c.name}（减 {yuan(c.discount_fen)}）
                </option>
              ))}
              <option value={0}>不使用优惠券</option>
            </select>
          )}
        </div>
      ) : null}
      {preview.discount_fen > 0 ? (
        <CardRow label="优惠" price>
          -{yuan(preview.discount_fen)}
        </CardRow>
      ) : null}
      <div className={styles.row}>
        <label htmlFor="use-points" className={styles.rowLabel}>
          积分抵扣
          <span className={styles.muted}>
            {preview.points_max > 0
              ? `（可用 ${preview.points_max} 积分抵 ${yuan(preview.points_max * preview.fen_per_point)}）`
              : `（余额 ${preview.points_balance} 积分，本单不可用）`}
          </span>
        </label>
        <input
          id="use-points"
          type="checkbox"
          role="switch"
          className={styles.switch}
          checked={usePoints && preview.points > 0}
          disabled={preview.points_max === 0}
          onChange={(e) => onPoints(e.target.checked)}
        />
      </div>
      {preview.points_fen > 0 ? (
        <CardRow label="积分" price>
          -{yuan(preview.points_fen)}
        </CardRow>
      ) : null}
      <CardRow label="实付" price>
        {yuan(preview.amount_fen)}
      </CardRow>
    </section>
  )
}

/** What each kind of payment agrees to: the agreement's title, and its short text shown when the title is tapped. */
const AGREEMENTS = {
  course: {
    title: '课程购买协议',
    terms:
      '购买后即可在有效期内学习所购内容。支付后 7 天内、且课程观看不足 20% 时，可在“我的订单”中申请退款，审核通过后原路退回，使用的优惠券和积分随退款返还。课程内容仅供本人学习，请勿传播。',
  },
  vip: {
    title: '会员服务协议',
    terms:
      '会员自支付成功起生效，续费在当前有效期基础上顺延；有效期内标有“VIP 免费”的课程可免费学习。支付后 7 天内可申请退款，退款后会员天数相应收回。',
  },
  tuition: { title: '学费缴纳说明', terms: '学费按已签署的合同缴纳，退费按合同约定的规则办理。' },
  amount: {
    title: '缴费协议',
    terms: '所缴款项用于链接所示用途，支付成功后工作人员可在后台查看。如需退款请联系工作人员。',
  },
}

type Agreement = keyof typeof AGREEMENTS

/**
 * The end of a checkout: the payment methods (when there is money to pay), the agreement's checkbox and the
 * fixed pay bar, and the QR code of WeChat Native. Paying needs the agreement: until it is ticked, the button
 * says so instead of calling `onPay`.
 */
export function PayFooter({
  flow,
  amountFen,
  onPay,
  agreement = 'course',
}: {
  flow: PayFlow
  amountFen: number
  onPay: () => void
  agreement?: Agreement
}) {
  const [open, setOpen] = useState(false)
  const { title, terms } = AGREEMENTS[agreement]
  const pay = () => (flow.agreed ? onPay() : toast(`请先阅读并同意《${title}》`))
  return (
    <>
      {amountFen > 0 ? <PayMethods methods={flow.methods} value={flow.method} onChange={flow.setMethod} /> : null}
      <AgreementCheck agreed={flow.agreed} onAgree={flow.setAgreed}>
        <label htmlFor="agree">我已阅读并同意</label>
        <button type="button" className={styles.textButton} onClick={() => setOpen((v) => !v)} aria-expanded={open}>
          《{title}》
        </button>
      </AgreementCheck>
      {open ? (
        <p className={styles.notice}>
          {terms}如有疑问请联系<Link to="/customer">客服</Link>。
        </p>
      ) : null}
      <div className={styles.bar}>
        <span className={styles.barTotal}>
          实付 <span className={styles.bigPrice}>{yuan(amountFen)}</span>
        </span>
        <button type="button" className={styles.button} disabled={flow.paying} onClick={pay}>
          {flow.paying ? '正在支付…' : amountFen > 0 ? `立即支付 ${yuan(amountFen)}` : '确认兑换'}
        </button>
      </div>
      {flow.qr ? <NativeQr order={flow.qr} onClose={flow.closeQr} /> : null}
    </>
  )
}

/** The agreement's checkbox (id "agree") before a pay button; `children` is its label and terms. */
export function AgreementCheck({
  agreed,
  onAgree,
  children,
}: {
  agreed: boolean
  onAgree: (v: boolean) => void
  children: ReactNode
}) {
  return (
    <div className={styles.agreement}>
      <input
        id="agree"
        type="checkbox"
        className={styles.switch}
        checked={agreed}
        onChange={(e) => onAgree(e.target.checked)}
      />
      {children}
    </div>
  )
}
