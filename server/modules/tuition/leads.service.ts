import type { DbOrTx } from '#server/db/database.ts'
import type { LeadState } from '#server/db/schema/tuition.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { pageFrom, parseSort, type PageRequest } from '#server/http/admin-list.ts'
import { snakeView } from '#server/http/snake-view.ts'
import type { SignUpInput } from '#shared/api/tuition.ts'
import { beijingDate } from '#shared/time.ts'
import { countLeads, findLead, searchLeads, updateLead, upsertLead, type LeadRow } from './leads.repository.ts'

// Leads (issue 15 §1): prospects from the sign-up and consultation forms, and what staff do with them.

const PHONE = /^1[3-9]\d{9}$/

/** A field's own message: the form marks that field (data.field). */
const fieldError = (entry: (typeof Codes)[keyof typeof Codes], field: string, msg: string) =>
  new AppError(entry, msg, { field })

/**
 * POST /course/signUp: the spec's phone rule ("请输入手机号", "手机号格式错误", code 401), a name, and for the
 * sign-up form a course or an interest; recorded with the promotion source and page. A second submission from
 * the same phone on the same Beijing day updates the lead (`updated` true) instead of adding one.
 */
export async function recordLead(
  db: DbOrTx,
  input: SignUpInput,
  ctx: { sp: string | null; page: string | null; now: Date },
) {
  const phone = input.phone.trim()
  if (!phone) throw fieldError(Codes.PhoneInvalid, 'phone', '请输入手机号')
  if (!PHONE.test(phone)) throw fieldError(Codes.PhoneInvalid, 'phone', '手机号格式错误')
  const name = input.name.trim()
  if (!name) throw fieldError(Codes.BadRequest, 'name', '请输入姓名')
  const interest = input.interest.trim()
  if (input.form === 1 && !input.course_id && !interest)
    throw fieldError(Codes.BadRequest, 'interest', '请选择想报名的课程')
  const row = await upsertLead(db, {
    form: input.form,
    name,
    phone,
    courseId: input.course_id ?? null,
    interest,
    contactTime: input.contact_time.trim(),
    sp: ctx.sp,
    page: input.page ?? ctx.page,
    day: beijingDate(ctx.now),
    createdAt: ctx.now,
    updatedAt: ctx.now,
  })
  return { id: row.id, updated: row.submissions > 1 }
}

const toLeadView = (row: LeadRow) => snakeView(row)

type LeadQuery = PageRequest & { sort: string; state?: LeadState; q?: string }

/** Leads for staff (the console's list pattern). */
export function leadPage(db: DbOrTx, q: LeadQuery) {
  const sort = parseSort(q.sort as 'created_at' | 'updated_at')
  const filter = { state: q.state, q: q.q }
  return pageFrom(
    q,
    (w) => searchLeads(db, filter, sort, w),
    () => countLeads(db, filter),
    (rows) => rows.map(toLeadView),
  )
}

/** Staff note a call (contacted) or give up (lost); offered and enrolled come from offers and payments. */
export async function editLead(db: DbOrTx, id: number, patch: { state?: LeadState; note?: string }, now: Date) {
  const row = await updateLead(db, id, { ...patch, updatedAt: now })
  if (!row) throw new AppError(Codes.NotFound, `线索 ${id} 不存在`)
  return toLeadView(row)
}

/** The lead an offer is made for (NotFound when there is none). */
export async function leadById(db: DbOrTx, id: number) {
  const row = await findLead(db, id)
  if (!row) throw new AppError(Codes.NotFound, `线索 ${id} 不存在`, { field: 'lead_id' })
  return row
}

/** Moves a lead along as its offer does (offered, enrolled); a lost lead stays lost. */
export async function advanceLead(db: DbOrTx, id: number | null, state: 'offered' | 'enrolled', now: Date) {
  if (id === null) return
  await updateLead(db, id, { state, updatedAt: now })
}
