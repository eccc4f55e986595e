import type { DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { findEnrolment, findSchedulePayment, setHuabeiChoice } from './enrolments.repository.ts'
import { findPlan, type PlanRow } from './programme.repository.ts'

// Alipay Huabei instalments (花呗分期, issue 15 §3) for a tuition payment: allowed by the plan, with the periods the
// plan offers and who bears the fee; sent to Alipay as extend_params (server/integrations/payments/alipay.ts).

/** What Alipay's WAP pay is told: the periods and the seller's share of the fee (100: the seller, 0: the buyer). */
export interface HuabeiTerms {
  periods: 3 | 6 | 12
  sellerPercent: 0 | 100
}

/** The plan's terms for `periods` (null: no Huabei asked for); a plan that does not offer them is refused. */
export function huabeiTerms(plan: PlanRow, payMethod: string, periods: number | undefined): HuabeiTerms | null {
  if (periods === undefined) return null
  if (payMethod !== 'alipay_wap')
    throw new AppError(Codes.BadRequest, '花呗分期仅支持支付宝支付', { field: 'pay_method' })
  if (!plan.huabeiAllowed) throw new AppError(Codes.BadRequest, '该学费方案不支持花呗分期')
  if (!plan.huabeiPeriods.includes(periods))
    throw new AppError(
      Codes.BadRequest,
      `该学费方案不支持花呗分期 ${periods} 期，可选：${plan.huabeiPeriods.join('、')} 期`,
      { field: 'huabei_periods' },
    )
  return { periods: periods as HuabeiTerms['periods'], sellerPercent: plan.huabeiFeePayer === 'seller' ? 100 : 0 }
}

/**
 * Inside the checkout's transaction: records the choice on the scheduled payment (its one pending order's choice).
 * True when it is unchanged, so that a pending order made under it may be reused.
 */
export async function keepHuabeiChoice(tx: DbOrTx, paymentId: number, terms: HuabeiTerms | null) {
  return !(await setHuabeiChoice(tx, paymentId, terms?.periods ?? null))
}

/** The Huabei terms of a tuition order (its target), for the provider; null when it pays without. */
export async function huabeiOfOrder(db: DbOrTx, target: string): Promise<HuabeiTerms | null> {
  const payment = await findSchedulePayment(db, Number(target.slice('tuition:'.length)))
  if (!payment?.huabeiPeriods) return null
  const plan = (await findPlan(db, (await findEnrolment(db, payment.enrolmentId))!.planId))!
  return {
    periods: payment.huabeiPeriods as HuabeiTerms['periods'],
    sellerPercent: plan.huabeiFeePayer === 'seller' ? 100 : 0,
  }
}
