import type { Db, DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { findOrCreateMemberByPhone } from '#server/modules/members/members.service.ts'
import { advanceLead, leadById } from '#server/modules/tuition/leads.service.ts'
import { offerablePlan, openEnrolment } from '#server/modules/tuition/enrolments.service.ts'

export interface TuitionDeps {
  db: Db
  now: () => Date
}

/**
 * Staff offer a system course (issue 15 §1): to a lead (its phone) or a phone, under a plan and a published contract
 * template version. In one transaction: the member behind the phone (created when new: they sign in with it), the
 * enrolment with its schedule and contract (tuition), the lead marked offered (tuition). The learner's link is
 * the contract to sign, or the payment page when the plan needs no contract.
 */
export async function offerEnrolment(
  deps: TuitionDeps,
  staffId: number,
  body: { lead_id?: number; phone?: string; plan_id: number; template_version_id?: number | null },
) {
  const at = deps.now()
  return deps.db.transaction(async (tx: DbOrTx) => {
    const lead = body.lead_id ? await leadById(tx, body.lead_id) : null
    const phone = lead?.phone ?? body.phone
    if (!phone) throw new AppError(Codes.BadRequest, '请选择线索或填写手机号', { field: 'phone' })
    const plan = await offerablePlan(tx, body.plan_id)
    const member = await findOrCreateMemberByPhone(tx, phone, at)
    const { enrolment, contractId } = await openEnrolment(tx, {
      memberId: member.id,
      plan,
      versionId: body.template_version_id ?? null,
      leadId: lead?.id ?? null,
      staffId,
      at,
    })
    await advanceLead(tx, lead?.id ?? null, 'offered', at)
    return {
      enrolment_id: enrolment.id,
      member_id: member.id,
      contract_id: contractId,
      link: contractId ? `/contract/${contractId}` : `/PayAmount?enrolment_id=${enrolment.id}`,
    }
  })
}
