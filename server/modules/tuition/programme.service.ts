import type { DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { snakeView } from '#server/http/snake-view.ts'
import type { PlanInput } from '#shared/api/tuition.ts'
import {
  findVersion,
  insertPlan,
  insertTemplate,
  insertVersion,
  listPlans,
  listTemplates,
  publishVersion,
  updateDraft,
  type PlanRow,
  type VersionRow,
} from './programme.repository.ts'

// Tuition plans and contract templates as staff keep them (issue 15 §2, §3).

const toPlanView = (p: PlanRow) => snakeView(p)

/** A new plan for a system course (`isSystemCourse` asks the catalogue). */
export async function createPlan(db: DbOrTx, input: PlanInput, isSystemCourse: boolean, at: Date) {
  if (!isSystemCourse) throw new AppError(Codes.BadRequest, '学费方案只能用于体系课', { field: 'course_id' })
  const id = await insertPlan(db, {
    courseId: input.course_id,
    title: input.title,
    kind: input.kind,
    totalFen: input.total_fen,
    depositFen: input.kind === 'deposit' ? input.deposit_fen : 0,
    balanceDueDays: input.balance_due_days,
    instalments: input.kind === 'instalments' ? input.instalments : 1,
    contractRequired: input.contract_required,
    huabeiAllowed: input.huabei_allowed,
    huabeiPeriods: input.huabei_allowed ? input.huabei_periods : [],
    huabeiFeePayer: input.huabei_fee_payer,
    studyDays: input.study_days,
    maxPauseDays: input.max_pause_days,
    exitFeeFen: input.exit_fee_fen,
    createdAt: at,
  })
  return id
}

export async function plans(db: DbOrTx, courseId?: number) {
  return (await listPlans(db, courseId)).map(toPlanView)
}

const toVersionView = (v: VersionRow) => ({ ...snakeView(v), published: v.publishedAt !== null })

export async function templates(db: DbOrTx) {
  return (await listTemplates(db)).map((t) => ({
    id: t.id,
    name: t.name,
    versions: t.versions.map(toVersionView),
  }))
}

/** A new template with its first (draft) version. */
export async function createTemplate(
  db: DbOrTx,
  input: { name: string; title: string; body: string; asks_id: boolean },
  at: Date,
) {
  const templateId = await insertTemplate(db, input.name, at)
  return toVersionView(
    await insertVersion(db, { templateId, title: input.title, body: input.body, asksId: input.asks_id, at }),
  )
}

/** A new draft version of a template (a published version is never edited: this is how it changes). */
export async function createVersion(
  db: DbOrTx,
  templateId: number,
  input: { title: string; body: string; asks_id: boolean },
  at: Date,
) {
  return toVersionView(
    await insertVersion(db, { templateId, title: input.title, body: input.body, asksId: input.asks_id, at }),
  )
}

/** Edits a draft; a published version answers Conflict. */
export async function editDraft(db: DbOrTx, id: number, input: { title: string; body: string; asks_id: boolean }) {
  const row = await updateDraft(db, id, { title: input.title, body: input.body, asksId: input.asks_id })
  if (row) return toVersionView(row)
  if (!(await findVersion(db, id))) throw new AppError(Codes.NotFound, `合同模板版本 ${id} 不存在`)
  throw new AppError(Codes.Conflict, '已发布的合同版本不能修改，请新建一个版本')
}

export async function publish(db: DbOrTx, id: number, at: Date) {
  const row = await publishVersion(db, id, at)
  if (row) return toVersionView(row)
  if (!(await findVersion(db, id))) throw new AppError(Codes.NotFound, `合同模板版本 ${id} 不存在`)
  throw new AppError(Codes.Conflict, '该版本已发布')
}
