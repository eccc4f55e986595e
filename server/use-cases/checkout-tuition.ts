import { courseTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import { findPendingOrder, lockOrderById } from '#server/modules/orders/orders.service.ts'
import { lockPayableEnrolment, tuitionTarget, tuitionToPay } from '#server/modules/tuition/enrolments.service.ts'
import { huabeiTerms, keepHuabeiChoice } from '#server/modules/tuition/huabei.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { placeOrder, type CheckoutContext } from './place-order.ts'

/**
 * POST /pay/tuition (issue 15 §3): the next due payment of an enrolment, or a chosen one, as an order of kind
 * `tuition` in the orders state machine. The rules first (tuition: the member's own enrolment, the contract signed
 * when the plan asks for one, the payment still due); then the shared checkout, whose one-pending-order-per-target
 * index (`tuition:<payment id>`) and per-member lock make any number of taps at once one order. No coupons, no
 * points: the amount is the contract's.
 */
export async function checkoutTuition(
  deps: CommerceDeps,
  ctx: CheckoutContext,
  enrolmentId: number,
  paymentId?: number,
  huabeiPeriods?: number,
) {
  const { enrolment, plan, payment } = await tuitionToPay(deps.db, ctx.memberId, enrolmentId, paymentId)
  const huabei = huabeiTerms(plan, ctx.payMethod, huabeiPeriods)
  const course = (await courseTitlesByIds(deps.db, [enrolment.courseId])).get(enrolment.courseId)?.title ?? '体系课'
  const title = `${course} · 学费${payment.label}`
  return placeOrder(
    deps,
    { ...ctx, couponId: null, points: 0 },
    {
      kind: 'tuition',
      target: tuitionTarget(payment.id),
      title,
      priceFen: payment.amountFen,
      items: [{ courseId: null, vipPlanId: null, vipDays: null, title, priceFen: payment.amountFen }],
      quitPath: `/PayAmount?enrolment_id=${enrolment.id}`,
      couponLines: null,
      pointsAllowed: false,
      // The Huabei choice is the pending order's (a changed one makes a new order: Alipay keeps the first periods
      // of an out_trade_no); an exit asked for meanwhile refuses it (POST /course/exit closes the pending orders).
      // Locks in the order a payment being confirmed takes them (confirm-payment, exit-enrolment): the pending
      // order, the scheduled payment, then the enrolment; taking the order last could deadlock with a payment.
      recheck: async (tx) => {
        const pending = await findPendingOrder(tx, ctx.memberId, 'tuition', tuitionTarget(payment.id))
        if (pending) await lockOrderById(tx, pending.id)
        const same = await keepHuabeiChoice(tx, payment.id, huabei)
        await lockPayableEnrolment(tx, enrolment.id)
        return same
      },
    },
  )
}
