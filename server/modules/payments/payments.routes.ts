import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { CommerceServices } from '#server/services-commerce.ts'
import type { NotificationAnswer } from './payments.service.ts'

const tags = ['payments']
const WechatFail = z.object({ code: z.literal('FAIL'), message: z.string() })
const RawBody = z.string().max(64 * 1024)

function incoming(request: FastifyRequest<{ Body: string }>) {
  return { headers: request.headers, body: typeof request.body === 'string' ? request.body : '' }
}

/** WeChat Pay wants 200/204 without a body for success, and 4xx/5xx with {code: 'FAIL', message} otherwise. */
function wechatAnswer(reply: FastifyReply, request: FastifyRequest, a: NotificationAnswer) {
  if (a.outcome !== 'applied' && a.outcome !== 'duplicate')
    request.log.warn({ outcome: a.outcome, detail: a.detail }, 'payment notification not applied')
  if (a.accepted) return reply.code(204).send()
  const status =
    a.outcome === 'bad_signature' || a.outcome === 'bad_timestamp' ? 401 : a.outcome === 'bad_body' ? 400 : 500
  return reply.code(status).send({ code: 'FAIL' as const, message: '失败' })
}

interface PaymentsRoutesOptions {
  payments: Pick<CommerceServices['payments'], 'handlePaymentNotification' | 'handleRefundNotification'>
}

/**
 * The providers' notification endpoints (POST /api/pay/notify/…). They speak the providers' protocols, not the
 * envelope; the body is kept as received because the signature covers its exact bytes.
 */
export async function paymentsRoutes(app: FastifyInstance, opts: PaymentsRoutesOptions) {
  const { payments } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body))
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  )
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body))

  r.post(
    '/pay/notify/wechat',
    {
      schema: {
        tags,
        summary: 'WeChat Pay payment notification (TRANSACTION.SUCCESS)',
        body: RawBody,
        response: { 204: z.null().describe('accepted'), 400: WechatFail, 401: WechatFail, 500: WechatFail },
      },
    },
    async (request, reply) =>
      wechatAnswer(reply, request, await payments.handlePaymentNotification('wechat', incoming(request))),
  )

  r.post(
    '/pay/notify/wechat/refund',
    {
      schema: {
        tags,
        summary: 'WeChat Pay refund notification (REFUND.SUCCESS / ABNORMAL / CLOSED)',
        body: RawBody,
        response: { 204: z.null().describe('accepted'), 400: WechatFail, 401: WechatFail, 500: WechatFail },
      },
    },
    async (request, reply) =>
      wechatAnswer(reply, request, await payments.handleRefundNotification('wechat', incoming(request))),
  )

  r.post(
    '/pay/notify/alipay',
    {
      schema: {
        tags,
        summary: 'Alipay async notification (trade_status_sync): answers "success" or "failure"',
        body: RawBody,
        response: { 200: z.string() },
      },
    },
    async (request, reply) => {
      const a = await payments.handlePaymentNotification('alipay', incoming(request))
      if (a.outcome !== 'applied' && a.outcome !== 'duplicate')
        request.log.warn({ outcome: a.outcome, detail: a.detail }, 'payment notification not applied')
      return reply
        .code(200)
        .type('text/plain; charset=utf-8')
        .send(a.accepted ? 'success' : 'failure')
    },
  )
}
