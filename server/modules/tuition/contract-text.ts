import { formatYuan } from '#shared/money.ts'
import { beijingDate } from '#shared/time.ts'

// A template's {{placeholders}} filled for one learner (issue 15 §2). Unknown placeholders stay visible, so a typo
// in a template shows in the preview instead of vanishing from a signed contract.

export interface ContractFacts {
  realName: string
  idType: string
  idNumber: string
  phone: string
  course: string
  plan: string
  totalFen: number
  schedule: { label: string; amountFen: number; dueAt: Date | null }[]
  studyDays: number
  maxPauseDays: number
  exitFeeFen: number
  date: Date
}

const yuan = (fen: number) => `${formatYuan(fen)} 元`

/** The refund rule in words, as the contract states it. */
function refundRuleText(f: Pick<ContractFacts, 'studyDays' | 'exitFeeFen'>) {
  return (
    `学员退学时，按未使用学习天数占总学习期（${f.studyDays} 天）的比例退还已缴学费，` +
    `扣除手续费 ${yuan(f.exitFeeFen)}，退款不超过已缴金额；休学期间不计入已使用天数。`
  )
}

function scheduleText(f: Pick<ContractFacts, 'schedule'>) {
  return f.schedule
    .map((p) => `${p.label}：${yuan(p.amountFen)}，${p.dueAt ? `${beijingDate(p.dueAt)} 前缴纳` : '签约后缴纳'}`)
    .join('；')
}

export function fillContract(body: string, f: ContractFacts): string {
  const values: Record<string, string> = {
    real_name: f.realName || '＿＿＿＿',
    id_type: f.idType || '＿＿＿＿',
    id_number: f.idNumber || '＿＿＿＿',
    phone: f.phone,
    course: f.course,
    plan: f.plan,
    total: yuan(f.totalFen),
    schedule: scheduleText(f),
    refund_rule: refundRuleText(f),
    study_days: String(f.studyDays),
    max_pause_days: String(f.maxPauseDays),
    date: beijingDate(f.date),
  }
  return body.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (all, key: string) => values[key] ?? all)
}
