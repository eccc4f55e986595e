import { z } from 'zod'
import { Fen } from '#shared/api/money.ts'
import { envelope } from '#server/http/envelope.ts'
import { IdQuery, OptionalIdQuery } from '#shared/api/params.ts'

// The answers of the system-course endpoints (issue 15): the contract of each route, as zod.

const enrolmentState = z.enum(['offered', 'signed', 'paying', 'enrolled', 'paused', 'overdue', 'exited'])

export const SignUpResponse = envelope(z.object({ id: z.number().int(), updated: z.boolean() }))

export const CourseIdQuery = z.object({ id: IdQuery })

export const ContactResponse = envelope(
  z.object({
    course_id: z.number().int(),
    /** True: the course's own contact (WeCom QR and/or link); false: the site's default. */
    own: z.boolean(),
    consult_url: z.string(),
    qr_image: z.string().nullable(),
    hours: z.string(),
    phone: z.string(),
  }),
)

const SchedulePaymentView = z.object({
  id: z.number().int(),
  seq: z.number().int(),
  label: z.string(),
  amount_fen: Fen,
  due_at: z.string().nullable(),
  status: z.enum(['paid', 'due', 'overdue', 'refunded']),
  order_no: z.string().nullable(),
  paid_at: z.string().nullable(),
  refunded_fen: Fen,
})

export const StatusResponse = envelope(
  z.object({
    status: z.union([z.literal('none'), enrolmentState]),
    label: z.string(),
    enrolment_id: z.number().int().nullable(),
    contract_id: z.number().int().nullable(),
    next_payment: SchedulePaymentView.nullable(),
  }),
)

export const EnrolmentView = z.object({
  id: z.number().int(),
  course_id: z.number().int(),
  course_title: z.string(),
  plan_id: z.number().int(),
  state: enrolmentState,
  started_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  paused_at: z.string().nullable(),
  pause_until: z.string().nullable(),
  paused_days: z.number().int(),
  exit_refund_fen: Fen.nullable(),
  exit_requested_at: z.string().nullable(),
  total_fen: Fen,
  paid_fen: Fen,
  /** Alipay Huabei instalments (花呗分期) the plan offers: the periods and who bears the fee; null: none. */
  huabei: z.object({ periods: z.array(z.number().int()), fee_payer: z.enum(['buyer', 'seller']) }).nullable(),
  schedule: z.array(SchedulePaymentView),
})
export type EnrolmentView = z.infer<typeof EnrolmentView>
export const TuitionListResponse = envelope(z.object({ list: z.array(EnrolmentView) }))

/** Which contract, of which enrolment: how every answer about a contract starts. */
const ContractIds = z.object({ id: z.number().int(), enrolment_id: z.number().int() })

/** What signing leaves on a contract (each null until it is signed): when, the name signed with, the PDF's SHA-256. */
const Signature = z.object({
  signed_at: z.string().nullable(),
  real_name: z.string().nullable(),
  sha256: z.string().nullable(),
})

/** One contract to read and sign: its text, whether it asks for an ID, its signature, and the plan's terms. */
export const ContractView = ContractIds.extend({
  title: z.string(),
  text: z.string(),
  asks_id: z.boolean(),
  signed: z.boolean(),
  ...Signature.shape,
  total_fen: Fen,
  contract_required: z.boolean(),
})
export type ContractView = z.infer<typeof ContractView>

export const ContractQuery = z.object({ id: OptionalIdQuery })
const ContractSummary = ContractIds.extend({
  signed: z.boolean(),
  signed_at: Signature.shape.signed_at,
  created_at: z.string(),
})
export const ContractResponse = envelope(
  z.object({ list: z.array(ContractSummary), contract: ContractView.nullable() }),
)
export const SeeQuery = z.object({ id: IdQuery, download: z.enum(['0', '1']).optional() })
export const SentToResponse = envelope(z.object({ phone: z.string() }))
export const AgreeResponse = envelope(ContractIds.extend({ signed_at: z.string(), sha256: z.string() }))

// ---- Staff ----

export const LeadView = z.object({
  id: z.number().int(),
  form: z.number().int(),
  name: z.string(),
  phone: z.string(),
  course_id: z.number().int().nullable(),
  interest: z.string(),
  contact_time: z.string(),
  sp: z.string().nullable(),
  page: z.string().nullable(),
  state: z.enum(['new', 'contacted', 'offered', 'enrolled', 'lost']),
  submissions: z.number().int(),
  note: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
})

export const OfferResponse = envelope(
  z.object({
    enrolment_id: z.number().int(),
    member_id: z.number().int(),
    contract_id: z.number().int().nullable(),
    link: z.string(),
  }),
)

export const PlanView = z.object({
  id: z.number().int(),
  course_id: z.number().int(),
  title: z.string(),
  kind: z.enum(['full', 'deposit', 'instalments']),
  total_fen: Fen,
  deposit_fen: Fen,
  balance_due_days: z.number().int(),
  instalments: z.number().int(),
  contract_required: z.boolean(),
  huabei_allowed: z.boolean(),
  huabei_periods: z.array(z.number().int()),
  huabei_fee_payer: z.enum(['buyer', 'seller']),
  study_days: z.number().int(),
  max_pause_days: z.number().int(),
  exit_fee_fen: Fen,
  active: z.boolean(),
})
export const PlanListResponse = envelope(z.object({ list: z.array(PlanView) }))
export const PlanCreatedResponse = envelope(z.object({ id: z.number().int() }))
export const PlanQuery = z.object({ course_id: OptionalIdQuery })

export const VersionView = z.object({
  id: z.number().int(),
  template_id: z.number().int(),
  version: z.number().int(),
  title: z.string(),
  body: z.string(),
  asks_id: z.boolean(),
  published: z.boolean(),
  published_at: z.string().nullable(),
})
export const VersionResponse = envelope(VersionView)
export const TemplateListResponse = envelope(
  z.object({ list: z.array(z.object({ id: z.number().int(), name: z.string(), versions: z.array(VersionView) })) }),
)

export const VerifyResponse = envelope(
  z.object({ id: z.number().int(), expected: z.string(), actual: z.string().nullable(), valid: z.boolean() }),
)
export const ExtendResponse = envelope(z.object({ payment_id: z.number().int(), due_at: z.string() }))

export const EnrolmentQuery = z.object({ enrolment_id: IdQuery })
export const PauseResponse = envelope(z.object({ enrolment_id: z.number().int(), pause_until: z.string() }))
export const ResumeResponse = envelope(z.object({ enrolment_id: z.number().int(), expires_at: z.string().nullable() }))
export const ExitQuoteResponse = envelope(
  z.object({
    enrolment_id: z.number().int(),
    paid_fen: Fen,
    study_days: z.number().int(),
    used_days: z.number().int(),
    exit_fee_fen: Fen,
    refund_fen: Fen,
    payments: z.array(z.object({ payment_id: z.number().int(), order_no: z.string(), fen: z.number().int() })),
  }),
)
export const ExitApprovedResponse = envelope(
  z.object({
    enrolment_id: z.number().int(),
    refunds: z.array(z.object({ refund_no: z.string(), amount_fen: Fen, state: z.string() })),
  }),
)

const { id, course_id, course_title, plan_id, state, total_fen, paid_fen, exit_requested_at, exit_refund_fen } =
  EnrolmentView.shape
const { started_at, expires_at, pause_until, paused_days, schedule } = EnrolmentView.shape
const text = z.string()
/** An enrolment as the console lists it (GET /api/admin/enrolments): the member's view, who, and what is due. */
export const StaffEnrolment = z.object({
  ...{ id, course_id, course_title, plan_id, state, total_fen, paid_fen, exit_requested_at, exit_refund_fen },
  ...{ member_id: id, phone: text.nullable(), name: text.nullable(), plan_title: text },
  ...{ next_due_at: text.nullable(), overdue: z.boolean(), created_at: text },
})
export type StaffEnrolment = z.infer<typeof StaffEnrolment>

/** One enrolment for staff: schedule, event log, contract, and the exit waiting for approval. */
export const StaffEnrolmentDetail = StaffEnrolment.extend({
  ...{ started_at, expires_at, pause_until, paused_days, schedule },
  events: z.array(
    z.object({
      ...{ from_state: enrolmentState.nullable(), to_state: enrolmentState, reason: text, actor: text },
      ...{ data: z.record(z.string(), z.unknown()).nullable(), created_at: text },
    }),
  ),
  contract: z.object({ id: z.number().int(), ...Signature.shape }).nullable(),
  exit_quote: ExitQuoteResponse.shape.data.nullable(),
})
export type StaffEnrolmentDetail = z.infer<typeof StaffEnrolmentDetail>

export const PreviewResponse = envelope(z.object({ text: z.string() }))
