import { findRefundsToSend } from '#server/modules/refunds/refunds.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { checkRefund, sendRefund } from './send-refund.ts'

/** How long a sent refund waits for its final answer before it is asked about again. */
const REFUND_RESEND_MS = 60_000

/**
 * The refund sweep: sends refunds that are approved but not sent; asks the provider about refunds sent without a
 * final answer for a while (and sends again, same number, those it never got). Returns how many it looked at.
 */
export async function sendPendingRefunds(deps: CommerceDeps, limit = 20) {
  const rows = await findRefundsToSend(deps.db, new Date(deps.now().getTime() - REFUND_RESEND_MS), limit)
  for (const r of rows) await (r.sentAt ? checkRefund(deps, r.id) : sendRefund(deps, r.id))
  return rows.length
}
