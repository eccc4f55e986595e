import { z } from 'zod'
import { OptionalIdQuery } from './params.ts'
import { adminListQuery, SearchText } from './admin-list.ts'
import { JsonId } from './params.ts'
import { idTypes } from '#shared/tuition-names.ts'

// System courses (issue 15): the request shapes the API validates and the screens (learner and console) reuse.

/** The most a tuition (or any of its amounts) may be: 500,000 yuan, in fen (well inside the database's integers). */
const MAX_TUITION_FEN = 50_000_000
const tuitionFen = z.number().int('金额最多两位小数').min(0, '金额不能为负').max(MAX_TUITION_FEN, '金额最多 50 万元')

/** POST /course/signUp: a lead from /form/1 (sign-up) or /form/2 (consultation). Field rules: server side. */
export const SignUpBody = z.object({
  form: z.union([z.literal(1), z.literal(2)]).default(1),
  name: z.string().max(40).default(''),
  phone: z.string().max(20).default(''),
  course_id: JsonId.nullable().optional(),
  interest: z.string().max(100).default(''),
  contact_time: z.string().max(40).default(''),
  page: z.string().max(300).optional(),
})
export type SignUpInput = z.infer<typeof SignUpBody>

export const AdminLeadQuery = adminListQuery(['created_at', 'updated_at'], '-created_at').extend({
  state: z.enum(['new', 'contacted', 'offered', 'enrolled', 'lost']).optional(),
  q: SearchText.optional(),
})

export const LeadPatchBody = z.object({
  state: z.enum(['new', 'contacted', 'lost']).optional(),
  note: z.string().trim().max(500).optional(),
})

/** Staff offer a lead (or a phone) a system course under a plan and a contract template version. */
export const OfferBody = z.object({
  lead_id: JsonId.optional(),
  phone: z
    .string()
    .trim()
    .regex(/^1[3-9]\d{9}$/, '手机号格式错误')
    .optional(),
  plan_id: JsonId,
  template_version_id: JsonId.nullable().optional(),
})

export const PlanBody = z
  .object({
    course_id: JsonId,
    title: z.string().trim().min(1, '请输入方案名称').max(60),
    kind: z.enum(['full', 'deposit', 'instalments']),
    total_fen: tuitionFen.min(1, '学费必须大于 0'),
    deposit_fen: tuitionFen.default(0),
    balance_due_days: z.number().int().min(1).max(365).default(30),
    instalments: z.number().int().min(1).max(36).default(1),
    contract_required: z.boolean().default(true),
    huabei_allowed: z.boolean().default(false),
    huabei_periods: z
      .array(z.union([z.literal(3), z.literal(6), z.literal(12)]))
      .max(3, '花呗分期最多 3 种期数')
      .default([]),
    huabei_fee_payer: z.enum(['buyer', 'seller']).default('buyer'),
    study_days: z.number().int().min(1).max(3650).default(365),
    max_pause_days: z.number().int().min(0).max(730).default(90),
    exit_fee_fen: tuitionFen.default(0),
  })
  .refine((p) => p.kind !== 'deposit' || (p.deposit_fen > 0 && p.deposit_fen < p.total_fen), {
    message: '定金须大于 0 且小于总学费',
    path: ['deposit_fen'],
  })
  .refine((p) => p.kind !== 'instalments' || p.instalments >= 2, { message: '分期至少 2 期', path: ['instalments'] })
  .refine((p) => !p.huabei_allowed || p.huabei_periods.length > 0, {
    message: '允许花呗分期时请至少选择一种期数',
    path: ['huabei_periods'],
  })
  .refine((p) => new Set(p.huabei_periods).size === p.huabei_periods.length, {
    message: '花呗分期的期数不能重复',
    path: ['huabei_periods'],
  })
export type PlanInput = z.infer<typeof PlanBody>

export const TemplateBody = z.object({
  name: z.string().trim().min(1, '请输入模板名称').max(60),
  title: z.string().trim().min(1, '请输入合同标题').max(80),
  body: z.string().trim().min(20, '合同正文至少 20 个字').max(20000),
  asks_id: z.boolean().default(false),
})
export const TemplateVersionBody = TemplateBody.omit({ name: true })
/** The console's preview: a template's text filled for a sample learner (under a chosen plan when given). */
export const TemplatePreviewBody = z.object({
  body: z.string().max(20000),
  plan_id: z.number().int().positive().optional(),
})

/** POST /contract/agree. The signature is a PNG data URL drawn on the screen. */
export const AgreeBody = z.object({
  id: JsonId,
  code: z.string().trim().min(1, '请输入验证码').max(10),
  real_name: z
    .string()
    .trim()
    .min(2, '请输入真实姓名')
    .max(30)
    .regex(/^[\p{Script=Han}·A-Za-z ]+$/u, '请输入真实姓名'),
  id_type: z.enum(idTypes).optional(),
  id_number: z.string().trim().max(30).optional(),
  agree: z.literal(true, { error: '请先阅读并同意合同条款' }),
  signature: z
    .string()
    .max(400_000, '签名图片过大')
    .regex(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/, '请在签名区手写签名'),
})
export type AgreeInput = z.infer<typeof AgreeBody>

export const PayTuitionBody = z.object({
  enrolment_id: JsonId,
  /** A chosen payment of the schedule; the next due one when absent. */
  payment_id: JsonId.optional(),
  pay_method: z.enum(['wechat_jsapi', 'wechat_h5', 'wechat_native', 'alipay_wap']),
  /** Alipay Huabei instalments (花呗分期): the periods, where the plan offers them (alipay_wap only). */
  huabei_periods: z
    .number()
    .int()
    .refine((n) => [3, 6, 12].includes(n), '花呗分期只支持 3、6、12 期')
    .optional(),
})

/** GET /api/admin/enrolments: by state, course and a name or phone (the lead's, the contract's, the member's). */
export const AdminEnrolmentQuery = adminListQuery(['created_at', 'updated_at'], '-created_at').extend({
  state: z.enum(['offered', 'signed', 'paying', 'enrolled', 'paused', 'overdue', 'exited']).optional(),
  course_id: OptionalIdQuery,
  q: SearchText.optional(),
})

export const ExtendDueBody = z.object({
  due_at: z.iso.datetime({ offset: true }),
  reason: z.string().trim().min(2, '请填写延期原因').max(200),
})

export const PauseBody = z.object({
  enrolment_id: JsonId,
  days: z.number().int().min(1, '休学至少 1 天').max(730),
})
export const EnrolmentBody = z.object({ enrolment_id: JsonId })
/** POST /course/exit: the amount the member saw and confirms (fen). */
export const ExitBody = z.object({ enrolment_id: JsonId, refund_fen: tuitionFen })
