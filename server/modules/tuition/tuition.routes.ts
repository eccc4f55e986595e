import type { FastifyRequest } from 'fastify'
import { apiPlugin } from '#server/http/route.ts'
import type { Bound } from '#server/use-cases/commerce-deps.ts'
import type { checkoutTuition } from '#server/use-cases/checkout-tuition.ts'
import { CheckoutResponse } from '#server/modules/orders/orders.service.ts'
import { AgreeBody, EnrolmentBody, ExitBody, PauseBody, PayTuitionBody, SignUpBody } from '#shared/api/tuition.ts'
import type { ServiceSettings } from '#shared/api/service-settings.ts'
import {
  AgreeResponse,
  ContactResponse,
  ContractQuery,
  ContractResponse,
  CourseIdQuery,
  EnrolmentQuery,
  ExitQuoteResponse,
  PauseResponse,
  ResumeResponse,
  SeeQuery,
  SentToResponse,
  SignUpResponse,
  StatusResponse,
  TuitionListResponse,
  type ContractView,
  type EnrolmentView,
} from './tuition.schema.ts'
import { z } from 'zod'

interface TuitionRoutesOptions {
  tuition: {
    signUp: (
      input: z.output<typeof SignUpBody>,
      ctx: { sp: string | null; page: string | null },
    ) => Promise<{
      id: number
      updated: boolean
    }>
    status: (memberId: number | null, courseId: number) => Promise<z.input<typeof StatusResponse>['data']>
    contracts: (memberId: number) => Promise<z.input<typeof ContractResponse>['data']['list']>
    contract: (memberId: number, id: number) => Promise<ContractView>
    pdf: (memberId: number, id: number) => Promise<Buffer>
    sendCode: (memberId: number, ctx: { ip: string; log: FastifyRequest['log'] }) => Promise<{ phone: string }>
    agree: (
      memberId: number,
      input: z.output<typeof AgreeBody>,
      client: { ip: string; userAgent: string },
    ) => Promise<z.input<typeof AgreeResponse>['data']>
    list: (memberId: number) => Promise<{ list: EnrolmentView[] }>
    pay: Bound<typeof checkoutTuition>
    pause: (memberId: number, enrolmentId: number, days: number) => Promise<z.input<typeof PauseResponse>['data']>
    resume: (enrolmentId: number, memberId: number) => Promise<z.input<typeof ResumeResponse>['data']>
    quoteExit: (memberId: number, enrolmentId: number) => Promise<z.input<typeof ExitQuoteResponse>['data']>
    requestExit: (
      memberId: number,
      enrolmentId: number,
      seenFen: number,
    ) => Promise<z.input<typeof ExitQuoteResponse>['data']>
  }
  /** The consultation contact of a course: its own (WeCom QR, link) over the site's default (service settings). */
  contact: (
    courseId: number,
  ) => Promise<Pick<ServiceSettings, 'consult_url' | 'qr_image' | 'hours' | 'phone'> & { own: boolean }>
}

/**
 * System courses (issue 15, spec 7): lead forms (POST /course/signUp), the consultation contact and enrolment
 * status of a course (GET /course/contact, /course/bs), contracts (GET /contract, /contract/see, POST
 * /contract/agree) and tuition (POST /pay/tuition, GET /tuition).
 */
export const tuitionRoutes = apiPlugin(
  { tags: ['tuition'], auth: 'required' },
  (r, { tuition, contact }: TuitionRoutesOptions) => {
    r.post(
      '/course/signUp',
      {
        auth: 'none',
        token: false,
        summary: 'Leave a lead from /form/1 (sign-up) or /form/2 (consultation); a second one the same day updates it',
        description:
          'Field errors name the field in data.field: 401 "请输入手机号" / "手机号格式错误" (phone), 400 for name or interest. Rate-limited per address.',
        body: SignUpBody,
        response: SignUpResponse,
        msg: '提交成功，我们会尽快联系你',
      },
      async (request) =>
        tuition.signUp(request.body, {
          sp: request.attribution?.sp ?? null,
          page: request.attribution?.url ?? null,
        }),
    )

    r.get(
      '/course/contact',
      {
        auth: 'none',
        summary:
          "The consultation contact shown on a system course's pages: the course's own WeCom QR and link, else the site's (hours, phone)",
        querystring: CourseIdQuery,
        response: ContactResponse,
      },
      async (request) => ({ course_id: request.query.id, ...(await contact(request.query.id)) }),
    )

    r.get(
      '/course/bs',
      {
        auth: 'none',
        summary: "The member's enrolment status in a system course (none for a visitor)",
        querystring: CourseIdQuery,
        response: StatusResponse,
      },
      async (request, memberId) => tuition.status(memberId, request.query.id),
    )

    r.get(
      '/contract',
      {
        summary: "The member's contracts; with id, that contract's whole filled text to read and sign",
        description: '404 for a contract that is not the member’s.',
        querystring: ContractQuery,
        response: ContractResponse,
      },
      async (request, memberId) => ({
        list: await tuition.contracts(memberId),
        contract: request.query.id ? await tuition.contract(memberId, request.query.id) : null,
      }),
    )

    r.raw.get(
      '/contract/see',
      {
        summary: 'The signed contract as a PDF (download=1: as an attachment)',
        querystring: SeeQuery,
        response: { 200: z.any() },
      },
      async (request, reply) => {
        const memberId = request.principal?.memberId
        if (!memberId) return reply.code(200).send({ code: 301, msg: '请先登录', data: {} })
        const pdf = await tuition.pdf(memberId, request.query.id)
        const name = `contract-${request.query.id}.pdf`
        return reply
          .type('application/pdf')
          .header('cache-control', 'private, no-store')
          .header(
            'content-disposition',
            `${request.query.download === '1' ? 'attachment' : 'inline'}; filename="${name}"`,
          )
          .send(pdf)
      },
    )

    r.post(
      '/contract/send_code',
      {
        summary: "Send a signing code to the member's own phone",
        response: SentToResponse,
        msg: '已发送验证码',
      },
      async (request, memberId) => tuition.sendCode(memberId, { ip: request.ip, log: request.log }),
    )

    r.post(
      '/contract/agree',
      {
        summary: 'Sign a contract: SMS code, real name, agreement and a hand-drawn signature (PNG data URL)',
        description: '405/406 code errors; 571 already signed; 404 not the member’s contract.',
        body: AgreeBody,
        bodyLimit: 600_000,
        response: AgreeResponse,
        msg: '签署成功',
      },
      async (request, memberId) =>
        tuition.agree(memberId, request.body, {
          ip: request.ip,
          userAgent: String(request.headers['user-agent'] ?? ''),
        }),
    )

    r.get(
      '/tuition',
      { summary: "The member's enrolments and payment schedules (/order3, /PayAmount)", response: TuitionListResponse },
      async (_request, memberId) => tuition.list(memberId),
    )

    r.post(
      '/pay/tuition',
      {
        idempotent: true,
        summary: 'Pay the next due tuition payment of an enrolment (or payment_id): one order per payment',
        description:
          '570 the contract must be signed first; 572 already paid; 400 Huabei (huabei_periods) on a plan or method that does not offer it.',
        body: PayTuitionBody,
        response: CheckoutResponse,
      },
      async (request, memberId) =>
        tuition.pay(
          {
            memberId,
            payMethod: request.body.pay_method,
            clientIp: request.ip,
            sp: request.attribution?.sp ?? null,
            origin: request.visitorOrigin,
          },
          request.body.enrolment_id,
          request.body.payment_id,
          request.body.huabei_periods,
        ),
    )

    r.post(
      '/course/pause',
      {
        summary: 'Pause (休学) an enrolment for some days within the contract’s limit: access pauses, expiry moves',
        description: '574 longer than the plan allows; 573 not running.',
        body: PauseBody,
        response: PauseResponse,
        msg: '已休学',
      },
      async (request, memberId) => tuition.pause(memberId, request.body.enrolment_id, request.body.days),
    )
    r.post(
      '/course/resume',
      { summary: 'Resume a paused enrolment early', body: EnrolmentBody, response: ResumeResponse, msg: '已复学' },
      async (request, memberId) => tuition.resume(request.body.enrolment_id, memberId),
    )
    r.get(
      '/course/exit',
      {
        summary: 'What exit (退学) gives back now under the contract’s refund rule, payment by payment (fen)',
        querystring: EnrolmentQuery,
        response: ExitQuoteResponse,
      },
      async (request, memberId) => tuition.quoteExit(memberId, request.query.enrolment_id),
    )
    r.post(
      '/course/exit',
      {
        summary: 'Ask to exit (退学) with the amount seen; staff approve, the money goes back through refunds',
        description: '409 when the amount changed since it was shown.',
        body: ExitBody,
        response: ExitQuoteResponse,
        msg: '已提交退学申请',
      },
      async (request, memberId) => tuition.requestExit(memberId, request.body.enrolment_id, request.body.refund_fen),
    )
  },
)
