import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { containsText, tableList } from '#server/db/list.ts'
import {
  contracts,
  enrolmentEvents,
  enrolments,
  leads,
  tuitionPlans,
  type EnrolmentState,
} from '#server/db/schema/tuition.ts'

// Enrolments as the operators' console lists them (issue 15): by state, course and a name or phone, which live on
// the lead the offer came from and on the signed contract (the member's own phone is matched by id, from the
// members module).

export interface EnrolmentFilter {
  state?: EnrolmentState
  courseId?: number
  /** Part of a name or phone (the lead's, the signed contract's), or the member the text names. */
  text?: { q: string; memberId: number | null }
}

function textMatch({ q, memberId }: NonNullable<EnrolmentFilter['text']>): SQL | undefined {
  const lead = or(containsText(leads.name, q), containsText(leads.phone, q))
  const contract = or(containsText(contracts.realName, q), containsText(contracts.phone, q))
  return or(
    memberId === null ? undefined : eq(enrolments.memberId, memberId),
    sql`${enrolments.leadId} in (select ${leads.id} from ${leads} where ${lead})`,
    sql`${enrolments.id} in (select ${contracts.enrolmentId} from ${contracts} where ${contract})`,
  )
}

const enrolmentWhere = (f: EnrolmentFilter) =>
  and(
    f.state ? eq(enrolments.state, f.state) : undefined,
    f.courseId ? eq(enrolments.courseId, f.courseId) : undefined,
    f.text ? textMatch(f.text) : undefined,
  )

/** One page of enrolments in the chosen order, and how many the filter matches. */
export const enrolmentList = tableList(enrolments, enrolmentWhere, {
  created_at: enrolments.id,
  updated_at: enrolments.updatedAt,
})

/** The names the enrolments are known by: the signed contract's real name, else the lead's name. */
export async function enrolmentNames(db: DbOrTx, rows: { id: number; leadId: number | null }[]) {
  const ids = rows.map((r) => r.id)
  const leadIds = rows.flatMap((r) => (r.leadId === null ? [] : [r.leadId]))
  const [signed, leadRows] = await Promise.all([
    ids.length
      ? db
          .select({ id: contracts.enrolmentId, name: contracts.realName })
          .from(contracts)
          .where(inArray(contracts.enrolmentId, ids))
      : [],
    leadIds.length ? db.select({ id: leads.id, name: leads.name }).from(leads).where(inArray(leads.id, leadIds)) : [],
  ])
  const byContract = new Map(signed.map((c) => [c.id, c.name]))
  const byLead = new Map(leadRows.map((l) => [l.id, l.name]))
  return new Map(
    rows.map((r) => [r.id, byContract.get(r.id) ?? (r.leadId === null ? null : (byLead.get(r.leadId) ?? null))]),
  )
}

/** The plans' titles, by id. */
export async function planTitles(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return new Map<number, string>()
  const rows = await db
    .select({ id: tuitionPlans.id, title: tuitionPlans.title })
    .from(tuitionPlans)
    .where(inArray(tuitionPlans.id, ids))
  return new Map(rows.map((r) => [r.id, r.title]))
}

/** The enrolment's event log, oldest first. */
export function eventsOf(db: DbOrTx, enrolmentId: number) {
  return db
    .select()
    .from(enrolmentEvents)
    .where(eq(enrolmentEvents.enrolmentId, enrolmentId))
    .orderBy(asc(enrolmentEvents.id))
}
