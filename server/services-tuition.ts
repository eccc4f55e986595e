import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/database.ts'
import type { MediaStores } from '#server/integrations/storage/storage.ts'
import type { AuthService } from '#server/modules/auth/auth.service.ts'
import { courseCardsByIds } from '#server/modules/catalogue/catalogue.service.ts'
import { courseConsultContact } from '#server/modules/catalogue/course-contact.service.ts'
import type { ServiceSettings } from '#shared/api/service-settings.ts'
import { editLead, leadPage, recordLead } from '#server/modules/tuition/leads.service.ts'
import { contractList } from '#server/modules/tuition/contracts.service.ts'
import { enrolmentStatus } from '#server/modules/tuition/enrolments.service.ts'
import { previewContract } from '#server/modules/tuition/contract-preview.service.ts'
import { enrolmentDetail, enrolmentExport, enrolmentPage } from '#server/modules/tuition/enrolment-admin.service.ts'
import {
  createPlan,
  createTemplate,
  createVersion,
  editDraft,
  plans,
  publish,
  templates,
} from '#server/modules/tuition/programme.service.ts'
import type { CommerceDeps } from '#server/use-cases/commerce-deps.ts'
import { checkoutTuition } from '#server/use-cases/checkout-tuition.ts'
import { listTuition } from '#server/use-cases/list-tuition.ts'
import { offerEnrolment } from '#server/use-cases/offer-enrolment.ts'
import { extendTuitionDue, pauseOverdueTuition } from '#server/use-cases/pause-overdue-tuition.ts'
import { approveExit, pauseTuition, quoteExit, requestExit, resumeTuition } from '#server/use-cases/exit-enrolment.ts'
import { pausesEnded } from '#server/modules/tuition/enrolment-care.service.ts'
import { readContractPdf, readContractPdfForStaff, verifyContractPdf } from '#server/use-cases/read-contract-pdf.ts'
import { readContract, signContractByMember } from '#server/use-cases/sign-contract.ts'
import type { CheckoutContext } from '#server/use-cases/place-order.ts'
import type { AdminEnrolmentQuery, AdminLeadQuery, LeadPatchBody, PlanInput, SignUpInput } from '#shared/api/tuition.ts'
import type { z } from 'zod'

/**
 * System courses (issue 15): the tuition module's doors and its use cases bound to the database, the clock, the
 * private store (signatures and contract PDFs), the SMS codes and the commerce dependencies (tuition checkout).
 */
export function createTuitionServices(input: {
  db: Db
  config: Config
  now: () => Date
  stores: MediaStores
  auth: AuthService
  commerce: CommerceDeps
}) {
  const { db, now, auth } = input
  const deps = { db, now }
  const withStores = { ...deps, stores: input.stores }
  const overdue = { ...deps, graceDays: input.config.tuition.graceDays }
  return {
    tuition: {
      signUp: (body: SignUpInput, ctx: { sp: string | null; page: string | null }) =>
        recordLead(db, body, { ...ctx, now: now() }),
      status: (memberId: number | null, courseId: number) => enrolmentStatus(db, memberId, courseId, now()),
      contracts: async (memberId: number) =>
        (await contractList(db, memberId)).map((c) => ({
          id: c.id,
          enrolment_id: c.enrolmentId,
          signed: c.signedAt !== null,
          signed_at: c.signedAt?.toISOString() ?? null,
          created_at: c.createdAt.toISOString(),
        })),
      contract: (memberId: number, id: number) => readContract(deps, memberId, id),
      pdf: (memberId: number, id: number) => readContractPdf(withStores, memberId, id),
      sendCode: (memberId: number, ctx: Parameters<AuthService['sendContractCode']>[1]) =>
        auth.sendContractCode(memberId, ctx),
      agree: (
        memberId: number,
        body: Parameters<typeof signContractByMember>[2],
        client: { ip: string; userAgent: string },
      ) => signContractByMember({ ...withStores, auth }, memberId, body, client),
      list: (memberId: number) => listTuition(deps, memberId),
      pay: (ctx: CheckoutContext, enrolmentId: number, paymentId?: number, huabeiPeriods?: number) =>
        checkoutTuition(input.commerce, ctx, enrolmentId, paymentId, huabeiPeriods),
      pause: (memberId: number, enrolmentId: number, days: number) =>
        pauseTuition(input.commerce, memberId, enrolmentId, days),
      resume: (enrolmentId: number, memberId: number) => resumeTuition(input.commerce, enrolmentId, memberId),
      quoteExit: (memberId: number, enrolmentId: number) => quoteExit(input.commerce, memberId, enrolmentId),
      requestExit: (memberId: number, enrolmentId: number, seenFen: number) =>
        requestExit(input.commerce, memberId, enrolmentId, seenFen),
    },
    /**
     * GET /course/contact: the course's own consultation contact (its WeCom QR, and its link or else the site's),
     * or the site's default (service settings) when the course has none; hours and phone are the site's.
     */
    courseContact: async (courseId: number, site: () => Promise<ServiceSettings>) => {
      const [own, s] = await Promise.all([courseConsultContact(db, courseId), site()])
      const has = !!(own?.qr || own?.url)
      return {
        own: has,
        consult_url: (has && own?.url) || s.consult_url,
        qr_image: has ? (own?.qr ?? null) : s.qr_image,
        hours: s.hours,
        phone: s.phone,
      }
    },
    tuitionAdmin: {
      leads: (q: z.output<typeof AdminLeadQuery>) => leadPage(db, q),
      enrolments: {
        page: (q: z.output<typeof AdminEnrolmentQuery>) => enrolmentPage(db, q, now()),
        csv: (q: z.output<typeof AdminEnrolmentQuery>) => enrolmentExport(db, q, now()),
      },
      enrolment: (id: number) => enrolmentDetail(db, id, now()),
      contractPdf: (id: number) => readContractPdfForStaff(withStores, id),
      editLead: (id: number, patch: z.output<typeof LeadPatchBody>) => editLead(db, id, patch, now()),
      offer: (staffId: number, body: Parameters<typeof offerEnrolment>[2]) => offerEnrolment(deps, staffId, body),
      plans: (courseId?: number) => plans(db, courseId),
      createPlan: async (body: PlanInput) => {
        const card = (await courseCardsByIds(db, [body.course_id])).get(body.course_id)
        return createPlan(db, body, card?.type === 'system', now())
      },
      templates: () => templates(db),
      createTemplate: (body: Parameters<typeof createTemplate>[1]) => createTemplate(db, body, now()),
      createVersion: (templateId: number, body: Parameters<typeof createVersion>[2]) =>
        createVersion(db, templateId, body, now()),
      editDraft: (id: number, body: Parameters<typeof editDraft>[2]) => editDraft(db, id, body),
      preview: (body: { body: string; plan_id?: number }) => previewContract(db, body.body, body.plan_id, now()),
      publish: (id: number) => publish(db, id, now()),
      verify: (id: number) => verifyContractPdf(withStores, id),
      approveExit: (staffId: number, enrolmentId: number) => approveExit(input.commerce, staffId, enrolmentId),
      extendDue: (staffId: number, paymentId: number, body: { due_at: string; reason: string }) =>
        extendTuitionDue(overdue, staffId, paymentId, body),
    },
    /**
     * The tuition sweep (server/main.ts runs it periodically; tests call it): pauses whose time is up resume, then
     * payments overdue past the grace period pause access. Returns how many enrolments it paused for overdue.
     */
    pauseOverdueTuition: async (limit?: number) => {
      for (const id of await pausesEnded(db, now(), limit ?? 200)) await resumeTuition(input.commerce, id)
      return pauseOverdueTuition(overdue, limit)
    },
  }
}
