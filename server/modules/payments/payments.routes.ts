import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { apiPlugin } from '#server/http/route.ts'
import type { Bound } from '#server/use-cases/commerce-deps.ts'
import type { receivePaymentNotification } from '#server/use-cases/confirm-payment.ts'
import type { receiveRefundNotification } from '#server/use-cases/confirm-refund.ts'
import type { NotificationAnswer } from './payments.service.ts'

const WechatFail = z.object({ code: z.literal('FAIL'), message: z.string() })
const RawBody = z.string().max(64 * 1024)

function incoming(request: FastifyRequest<{ Body: string }>) {
  return { headers: request.headers, body: typeof request.body === 'string' ? request.body : '' }
}

function logRefused(request: FastifyRequest, a: NotificationAnswer) {
  if (a.outcome !== 'applied' && a.outcome !== 'duplicate')
    request.log.warn({ outcome: a.outcome, detail: a.detail }, 'payment notification not applied')
}

/** WeChat Pay wants 200/204 without a body for success, and 4xx/5xx with {code: 'FAIL', message} otherwise. */
const wechatAnswers = { 204: z.null().describe('accepted'), 400: WechatFail, 401: WechatFail, 500: WechatFail }

function wechatAnswer(reply: FastifyReply, request: FastifyRequest, a: NotificationAnswer) {
  logRefused(request, a)
  if (a.accepted) return reply.code(204).send()
  const status =
    a.outcome === 'bad_signature' || a.outcome === 'bad_timestamp' ? 401 : a.outcome === 'bad_body' ? 400 : 500
  return reply.code(status).send({ code: 'FAIL' as const, message: '失败' })
}

interface PaymentsRoutesOptions {
  /** The providers' notifications: the confirm-payment and confirm-refund use cases. */
  payments: {
    handlePaymentNotification: Bound<typeof receivePaymentNotification>
    handleRefundNotification: Bound<typeof receiveRefundNotification>
  }
}

/**
 * The providers' notification endpoints (POST /api/pay/notify/…). They speak the providers' protocols, not the
 * envelope; the body is kept as received because the signature covers its exact bytes.
 */
export const paymentsRoutes = apiPlugin(
  { tags: ['payments'], token: false },
  (r, { payments }: PaymentsRoutesOptions, app) => {
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body))
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    )
    app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body))

    type Handle = PaymentsRoutesOptions['payments']['handlePaymentNotification']
    const wechatNotify = (url: string, summary: string, handle: Handle) =>
      r.raw.post(url, { summary, body: RawBody, response: wechatAnswers }, async (request, reply) =>
        wechatAnswer(reply, request, await handle('wechat', incoming(request))),
      )
    wechatNotify(
      '/pay/notify/wechat',
      'WeChat Pay payment notification (TRANSACTION.SUCCESS)',
      payments.handlePaymentNotification,
    )
    wechatNotify(
      '/pay/notify/wechat/refund',
      'WeChat Pay refund notification (REFUND.SUCCESS / ABNORMAL / CLOSED)',
      payments.handleRefundNotification,
    )

    r.raw.post(
      '/pay/notify/alipay',
      {
        summary: 'Alipay async notification (trade_status_sync): answers "success" or "failure"',
        body: RawBody,
        response: { 200: z.string() },
      },
      async (request, reply) => {
        const a = await payments.handlePaymentNotification('alipay', incoming(request))
        logRefused(request, a)
        return reply
          .code(200)
          .type('text/plain; charset=utf-8')
          .send(a.accepted ? 'success' : 'failure')
      },
    )
  },
)
