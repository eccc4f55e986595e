import { sql } from 'drizzle-orm'
import { boolean, check, date, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { courses } from './catalogue.ts'
import { members } from './members.ts'
import { cascadeRef, identity, ownedBy, ref, stateLog, timestamptz } from './columns.ts'

// System courses as a programme people enrol in (issue 15): lead forms, tuition plans, contracts, enrolments and
// their payment schedule. The rules live in server/modules/tuition; the shapes are explained in
// docs/decisions/2026-11-26-tuition-and-contracts.md.

export const leadStates = ['new', 'contacted', 'offered', 'enrolled', 'lost'] as const
export type LeadState = (typeof leadStates)[number]

/** A prospect who left a phone number on /form/1 (sign-up) or /form/2 (consultation). One row per phone per day. */
export const leads = pgTable(
  'leads',
  {
    id: identity(),
    /** 1: course sign-up (/form/1), 2: consultation (/form/2). */
    form: integer().notNull(),
    name: text().notNull(),
    phone: text().notNull(),
    courseId: ref(() => courses.id, { onDelete: 'set null' }),
    interest: text().notNull().default(''),
    contactTime: text().notNull().default(''),
    sp: text(),
    page: text(),
    state: text({ enum: leadStates }).notNull().default('new'),
    /** The Beijing date of the submission: a second submission the same day updates this row. */
    day: date({ mode: 'string' }).notNull(),
    submissions: integer().notNull().default(1),
    note: text().notNull().default(''),
    createdAt: timestamptz().notNull(),
    updatedAt: timestamptz().notNull(),
  },
  (t) => [
    uniqueIndex('leads_phone_day_key').on(t.phone, t.day),
    index('leads_state_idx').on(t.state, t.id),
    check('leads_form_ck', sql`${t.form} in (1, 2)`),
  ],
)

export const planKinds = ['full', 'deposit', 'instalments'] as const
export type PlanKind = (typeof planKinds)[number]

/**
 * How a system course's tuition is paid: in full; a deposit then the balance within `balance_due_days`; or
 * `instalments` monthly payments. The refund rule of exit: the unused share of what was paid, less `exit_fee_fen`.
 */
export const tuitionPlans = pgTable(
  'tuition_plans',
  {
    ...ownedBy('courseId', () => courses.id),
    title: text().notNull(),
    kind: text({ enum: planKinds }).notNull(),
    totalFen: integer().notNull(),
    depositFen: integer().notNull().default(0),
    balanceDueDays: integer().notNull().default(30),
    instalments: integer().notNull().default(1),
    contractRequired: boolean().notNull().default(true),
    /** Alipay Huabei instalments (花呗分期) allowed, with the periods offered and who bears the fee. */
    huabeiAllowed: boolean().notNull().default(false),
    huabeiPeriods: integer()
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    huabeiFeePayer: text({ enum: ['buyer', 'seller'] })
      .notNull()
      .default('buyer'),
    studyDays: integer().notNull().default(365),
    maxPauseDays: integer().notNull().default(90),
    exitFeeFen: integer().notNull().default(0),
    active: boolean().notNull().default(true),
    createdAt: timestamptz().notNull(),
  },
  (t) => [
    index('tuition_plans_course_idx').on(t.courseId),
    check(
      'tuition_plans_amounts_ck',
      sql`${t.totalFen} > 0 and ${t.depositFen} >= 0 and ${t.depositFen} < ${t.totalFen} and ${t.exitFeeFen} >= 0
        and ${t.instalments} between 1 and 36 and ${t.studyDays} > 0 and ${t.maxPauseDays} >= 0`,
    ),
  ],
)

export const contractTemplates = pgTable('contract_templates', {
  id: identity(),
  name: text().notNull(),
  createdAt: timestamptz().notNull(),
})

/**
 * One version of a template. A draft may be edited; a published version never changes (the repository only
 * updates drafts, and a trigger refuses any change to a published row): a new version is made instead.
 */
export const contractTemplateVersions = pgTable(
  'contract_template_versions',
  {
    ...ownedBy('templateId', () => contractTemplates.id),
    version: integer().notNull(),
    title: text().notNull(),
    /** With {{placeholders}}: real_name, id_type, id_number, phone, course, plan, schedule, refund_rule, date… */
    body: text().notNull(),
    /** The template asks for the learner's ID type and number. */
    asksId: boolean().notNull().default(false),
    publishedAt: timestamptz(),
    createdAt: timestamptz().notNull(),
  },
  (t) => [uniqueIndex('contract_template_versions_key').on(t.templateId, t.version)],
)

export const enrolmentStates = ['offered', 'signed', 'paying', 'enrolled', 'paused', 'overdue', 'exited'] as const
export type EnrolmentState = (typeof enrolmentStates)[number]

/** A member's place in a system course under a tuition plan: offered by staff, signed, paid, paused, exited. */
export const enrolments = pgTable(
  'enrolments',
  {
    id: identity(),
    memberId: cascadeRef(() => members.id),
    courseId: cascadeRef(() => courses.id),
    planId: ref(() => tuitionPlans.id).notNull(),
    templateVersionId: ref(() => contractTemplateVersions.id),
    leadId: ref(() => leads.id, { onDelete: 'set null' }),
    state: text({ enum: enrolmentStates }).notNull(),
    /** When access opened (the first required payment) and until when the programme runs. */
    startedAt: timestamptz(),
    expiresAt: timestamptz(),
    /** A running pause (休学): since when and until when; the days paused so far. */
    pausedAt: timestamptz(),
    pauseUntil: timestamptz(),
    pausedDays: integer().notNull().default(0),
    /** Exit (退学): what the rule gives back, asked for and approved. */
    exitRefundFen: integer(),
    exitRequestedAt: timestamptz(),
    exitedAt: timestamptz(),
    offeredBy: ref(() => members.id, { onDelete: 'set null' }),
    createdAt: timestamptz().notNull(),
    updatedAt: timestamptz().notNull(),
  },
  (t) => [
    index('enrolments_member_idx').on(t.memberId, t.id),
    uniqueIndex('enrolments_one_open_per_course')
      .on(t.memberId, t.courseId)
      .where(sql`${t.state} <> 'exited'`),
    index('enrolments_state_idx').on(t.state, t.id),
    // The console's enrolments of a course, newest first.
    index('enrolments_course_idx').on(t.courseId, t.id),
    // The tuition sweep: pauses whose time is up (the predicate is a literal in the query, for generic plans).
    index('enrolments_pause_until_idx')
      .on(t.pauseUntil)
      .where(sql`${t.state} = 'paused'`),
  ],
)

/** Append-only: every transition of every enrolment, who made it and why (like order_events). */
export const enrolmentEvents = stateLog('enrolment_events', 'enrolmentId', () => enrolments.id, enrolmentStates)

export const schedulePaymentStates = ['due', 'paid', 'refunded'] as const

/** The enrolment's payment schedule: one row per payment (full, deposit, balance, or each instalment). */
export const tuitionPayments = pgTable(
  'tuition_payments',
  {
    ...ownedBy('enrolmentId', () => enrolments.id),
    seq: integer().notNull(),
    label: text().notNull(),
    amountFen: integer().notNull(),
    /** Null: due once the contract is signed (the first payment). */
    dueAt: timestamptz(),
    /** The payment that opens access (the first one the plan requires). */
    opensAccess: boolean().notNull().default(false),
    state: text({ enum: schedulePaymentStates }).notNull().default('due'),
    orderNo: text(),
    /**
     * Alipay Huabei instalments (花呗分期) chosen for the payment's open order: the periods (3, 6, 12); null: paid
     * without. One pending order per payment, so this is that order's choice (a changed choice makes a new order).
     */
    huabeiPeriods: integer(),
    paidAt: timestamptz(),
    refundedFen: integer().notNull().default(0),
  },
  (t) => [
    uniqueIndex('tuition_payments_seq_key').on(t.enrolmentId, t.seq),
    index('tuition_payments_due_idx')
      .on(t.dueAt)
      .where(sql`${t.state} = 'due'`),
    check('tuition_payments_amount_ck', sql`${t.amountFen} > 0 and ${t.refundedFen} between 0 and ${t.amountFen}`),
  ],
)

/**
 * A contract offered to a member for an enrolment: pending until signed; at signing the filled text, the
 * signature image, time, client address, user agent and phone are frozen with the SHA-256 of the PDF.
 */
export const contracts = pgTable(
  'contracts',
  {
    id: identity(100001),
    enrolmentId: cascadeRef(() => enrolments.id),
    memberId: cascadeRef(() => members.id),
    templateVersionId: ref(() => contractTemplateVersions.id).notNull(),
    filledText: text(),
    realName: text(),
    idType: text(),
    idNumber: text(),
    phone: text(),
    signatureKey: text(),
    signedAt: timestamptz(),
    clientIp: text(),
    userAgent: text(),
    sha256: text(),
    pdfKey: text(),
    /** The refund rule frozen at signing (from the plan): { exit_fee_fen, study_days }. */
    refundRule: jsonb().$type<{ exit_fee_fen: number; study_days: number }>(),
    createdAt: timestamptz().notNull(),
  },
  (t) => [uniqueIndex('contracts_enrolment_key').on(t.enrolmentId), index('contracts_member_idx').on(t.memberId, t.id)],
)
