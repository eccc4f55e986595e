import type { DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { fillContract } from './contract-text.ts'
import { findPlan } from './programme.repository.ts'
import { buildSchedule, type PlanTerms } from './tuition-rules.ts'

// The console's preview of a contract template (issue 15 §2): its text filled the way a learner's contract is,
// for a sample learner, under a plan staff pick (or a sample plan), so a typo in a {{placeholder}} shows.

const samplePlan = {
  title: '定金 + 尾款（示例）',
  kind: 'deposit',
  totalFen: 300000,
  depositFen: 50000,
  balanceDueDays: 30,
  instalments: 1,
  studyDays: 365,
  maxPauseDays: 90,
  exitFeeFen: 10000,
} as const satisfies PlanTerms & Record<string, unknown>

/** The template `body` filled for a sample learner, under plan `planId` when given. */
export async function previewContract(db: DbOrTx, body: string, planId: number | undefined, now: Date) {
  const plan = planId === undefined ? samplePlan : await findPlan(db, planId)
  if (!plan) throw new AppError(Codes.NotFound, `学费方案 ${planId} 不存在`, { field: 'plan_id' })
  const text = fillContract(body, {
    realName: '张小明',
    idType: '身份证',
    idNumber: '110101200001011234',
    phone: '13800138000',
    course: '示例体系课',
    plan: plan.title,
    totalFen: plan.totalFen,
    schedule: buildSchedule(plan, now),
    studyDays: plan.studyDays,
    maxPauseDays: plan.maxPauseDays,
    exitFeeFen: plan.exitFeeFen,
    date: now,
  })
  return { text }
}
