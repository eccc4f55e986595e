import { and, eq, or, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { containsText, countWhere, orderOf, readPage, type ListSort, type ListWindow } from '#server/db/list.ts'
import { rowsBy, upsert } from '#server/db/rows.ts'
import { leads, type LeadState } from '#server/db/schema/tuition.ts'

export type LeadRow = typeof leads.$inferSelect
export type NewLead = Omit<typeof leads.$inferInsert, 'id' | 'state' | 'submissions' | 'note'>

/**
 * Records a submission: the first of a phone on a Beijing day inserts the lead, a repeat the same day updates it
 * (what was asked, when to call, the source) and counts it, in one statement (two taps at once give one row).
 */
export function upsertLead(db: DbOrTx, lead: NewLead) {
  return upsert(db, leads, lead, {
    target: [leads.phone, leads.day],
    set: {
      form: sql`excluded.form`,
      name: sql`excluded.name`,
      courseId: sql`coalesce(excluded.course_id, ${leads.courseId})`,
      interest: sql`excluded.interest`,
      contactTime: sql`excluded.contact_time`,
      sp: sql`coalesce(excluded.sp, ${leads.sp})`,
      page: sql`coalesce(excluded.page, ${leads.page})`,
      submissions: sql`${leads.submissions} + 1`,
      updatedAt: sql`excluded.updated_at`,
    },
  })
}

export const { find: findLead } = rowsBy(leads, leads.id)

export async function updateLead(db: DbOrTx, id: number, set: { state?: LeadState; note?: string; updatedAt: Date }) {
  const [row] = await db.update(leads).set(set).where(eq(leads.id, id)).returning()
  return row ?? null
}

export interface LeadFilter {
  state?: LeadState
  q?: string
}

const sortable = { created_at: leads.id, updated_at: leads.updatedAt }

function leadWhere(f: LeadFilter) {
  return and(
    f.state ? eq(leads.state, f.state) : undefined,
    f.q
      ? or(containsText(leads.phone, f.q), containsText(leads.name, f.q), containsText(leads.interest, f.q))
      : undefined,
  )
}

/** Leads for staff: one page in the chosen order. */
export function searchLeads(db: DbOrTx, f: LeadFilter, sort: ListSort<keyof typeof sortable>, window: ListWindow) {
  return readPage(db, leads, leadWhere(f), orderOf(sortable, sort, leads.id), window)
}

export const countLeads = (db: DbOrTx, f: LeadFilter) => countWhere(db, leads, leadWhere(f))
