import { z } from 'zod'
import { listRoute } from '#server/http/admin-list.ts'
import { adminPlugin } from '#server/http/route.ts'
import { IdParams } from '#shared/api/params.ts'
import {
  AdminEnrolmentQuery,
  AdminLeadQuery,
  ExtendDueBody,
  LeadPatchBody,
  OfferBody,
  PlanBody,
  TemplateBody,
  TemplatePreviewBody,
  TemplateVersionBody,
} from '#shared/api/tuition.ts'
import {
  ExitApprovedResponse,
  ExtendResponse,
  LeadView,
  OfferResponse,
  PlanCreatedResponse,
  PlanListResponse,
  PlanQuery,
  PreviewResponse,
  StaffEnrolment,
  StaffEnrolmentDetail,
  TemplateListResponse,
  VerifyResponse,
  VersionResponse,
} from './tuition.schema.ts'
import { envelope } from '#server/http/envelope.ts'
import type { enrolmentExport } from './enrolment-admin.service.ts'

type Data<R extends z.ZodType> = z.input<R> extends { data: infer D } ? D : never
type LeadRow = z.input<typeof LeadView>
type EnrolmentQuery = z.output<typeof AdminEnrolmentQuery>
type Page<T> = { list: T[]; total: number; page: number; page_size: number }

interface AdminTuitionOptions {
  admin: {
    leads: (
      q: z.output<typeof AdminLeadQuery>,
    ) => Promise<{ list: LeadRow[]; total: number; page: number; page_size: number }>
    enrolments: {
      page: (q: EnrolmentQuery) => Promise<Page<z.input<typeof StaffEnrolment>>>
      csv: (q: EnrolmentQuery) => ReturnType<typeof enrolmentExport>
    }
    enrolment: (id: number) => Promise<z.input<typeof StaffEnrolmentDetail>>
    contractPdf: (id: number) => Promise<Buffer>
    editLead: (id: number, patch: z.output<typeof LeadPatchBody>) => Promise<LeadRow>
    offer: (staffId: number, body: z.output<typeof OfferBody>) => Promise<Data<typeof OfferResponse>>
    plans: (courseId?: number) => Promise<Data<typeof PlanListResponse>['list']>
    createPlan: (body: z.output<typeof PlanBody>) => Promise<number>
    templates: () => Promise<Data<typeof TemplateListResponse>['list']>
    createTemplate: (body: z.output<typeof TemplateBody>) => Promise<Data<typeof VersionResponse>>
    createVersion: (
      templateId: number,
      body: z.output<typeof TemplateVersionBody>,
    ) => Promise<Data<typeof VersionResponse>>
    editDraft: (id: number, body: z.output<typeof TemplateVersionBody>) => Promise<Data<typeof VersionResponse>>
    preview: (body: z.output<typeof TemplatePreviewBody>) => Promise<{ text: string }>
    publish: (id: number) => Promise<Data<typeof VersionResponse>>
    verify: (id: number) => Promise<Data<typeof VerifyResponse>>
    approveExit: (staffId: number, enrolmentId: number) => Promise<Data<typeof ExitApprovedResponse>>
    extendDue: (
      staffId: number,
      paymentId: number,
      body: z.output<typeof ExtendDueBody>,
    ) => Promise<Data<typeof ExtendResponse>>
  }
}

/** System courses in the operators' console (issue 15): leads and offers, plans, contract templates, contracts. */
export const adminTuitionRoutes = adminPlugin(
  { read: 'tuition.read', write: 'tuition.manage' },
  (r, { admin }: AdminTuitionOptions) => {
    listRoute(r, '/admin/leads', {
      summary: 'Leads from the sign-up and consultation forms, by state and text (name, phone, interest)',
      querystring: AdminLeadQuery,
      row: LeadView,
      list: (q) => admin.leads(q),
    })
    r.patch(
      '/admin/leads/:id',
      {
        summary: 'Mark a lead contacted or lost, or note a call',
        params: IdParams,
        body: LeadPatchBody,
        response: envelope(LeadView),
      },
      async (request) => admin.editLead(request.params.id, request.body),
    )
    listRoute(r, '/admin/enrolments', {
      summary: 'Enrolments in system courses, by state, course and a name or phone; with how much is paid',
      querystring: AdminEnrolmentQuery,
      row: StaffEnrolment,
      list: admin.enrolments,
    })
    r.get(
      '/admin/enrolments/:id',
      {
        summary: 'One enrolment: its payment schedule, event log, contract and the exit waiting for approval',
        params: IdParams,
        response: envelope(StaffEnrolmentDetail),
      },
      async (request) => admin.enrolment(request.params.id),
    )
    r.raw.get(
      '/admin/contracts/:id/pdf',
      {
        summary: "A signed contract's PDF as stored (each read is in the staff action log: it carries the ID number)",
        params: IdParams,
        auditRead: true,
        response: { 200: z.any() },
      },
      async (request, reply) =>
        reply
          .type('application/pdf')
          .header('cache-control', 'private, no-store')
          .header('content-disposition', `inline; filename="contract-${request.params.id}.pdf"`)
          .send(await admin.contractPdf(request.params.id)),
    )
    r.post(
      '/admin/enrolments/offer',
      {
        summary: 'Offer a lead (or a phone) a system course under a plan and a published contract version',
        description:
          'Answers the link the learner opens: /contract/{id}, or the payment page when no contract is needed.',
        body: OfferBody,
        response: OfferResponse,
      },
      async (request, staffId) => admin.offer(staffId, request.body),
    )
    r.get(
      '/admin/tuition-plans',
      { summary: 'Tuition plans (of one course with course_id)', querystring: PlanQuery, response: PlanListResponse },
      async (request) => ({ list: await admin.plans(request.query.course_id) }),
    )
    r.post(
      '/admin/tuition-plans',
      { summary: 'A tuition plan for a system course', body: PlanBody, response: PlanCreatedResponse },
      async (request) => ({ id: await admin.createPlan(request.body) }),
    )
    r.get(
      '/admin/contract-templates',
      { summary: 'Contract templates with their versions', response: TemplateListResponse },
      async () => ({ list: await admin.templates() }),
    )
    r.post(
      '/admin/contract-templates',
      { summary: 'A new template with its first draft version', body: TemplateBody, response: VersionResponse },
      async (request) => admin.createTemplate(request.body),
    )
    r.post(
      '/admin/contract-templates/:id/versions',
      {
        summary: 'A new draft version of a template',
        params: IdParams,
        body: TemplateVersionBody,
        response: VersionResponse,
      },
      async (request) => admin.createVersion(request.params.id, request.body),
    )
    r.patch(
      '/admin/contract-versions/:id',
      {
        summary: 'Edit a draft version (a published one answers 409: make a new version)',
        params: IdParams,
        body: TemplateVersionBody,
        response: VersionResponse,
      },
      async (request) => admin.editDraft(request.params.id, request.body),
    )
    r.post(
      '/admin/contract-templates/preview',
      {
        summary: "A template's text filled for a sample learner (under plan_id when given), changing nothing",
        permission: 'tuition.read',
        body: TemplatePreviewBody,
        response: PreviewResponse,
      },
      async (request) => admin.preview(request.body),
    )
    r.post(
      '/admin/contract-versions/:id/publish',
      { summary: 'Publish a draft version: it never changes again', params: IdParams, response: VersionResponse },
      async (request) => admin.publish(request.params.id),
    )
    r.get(
      '/admin/contracts/:id/verify',
      {
        summary: "Verify a signed contract's stored PDF against its SHA-256",
        params: IdParams,
        response: VerifyResponse,
      },
      async (request) => admin.verify(request.params.id),
    )
    r.post(
      '/admin/tuition-payments/:id/extend',
      {
        summary: 'Extend the due date of a scheduled payment, with the reason (recorded with who)',
        params: IdParams,
        body: ExtendDueBody,
        response: ExtendResponse,
      },
      async (request, staffId) => admin.extendDue(staffId, request.params.id, request.body),
    )
    r.post(
      '/admin/enrolments/:id/exit/approve',
      {
        summary: "Approve a member's exit: access ends, each payment's share goes back through the refund path",
        permission: 'refunds.approve',
        stepUp: true,
        params: IdParams,
        response: ExitApprovedResponse,
      },
      async (request, staffId) => admin.approveExit(staffId, request.params.id),
    )
  },
)
