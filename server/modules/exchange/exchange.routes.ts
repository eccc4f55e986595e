import { z } from 'zod'
import { apiPlugin } from '#server/http/route.ts'
import type { PlatformId } from '#server/integrations/platforms/platform.ts'
import { OrderToCourseBody, type Platform } from '#shared/api/exchange.ts'
import { ExchangeResponse, UnexchangedResponse, type ExchangeResult, type UnexchangedOrder } from './exchange.schema.ts'

export interface ExchangeRoutesOptions {
  exchange: {
    /** exchange-platform-order.ts, bound: the member, the shop, what they pasted. */
    exchange: (memberId: number, group: 'douyin', pasted: string) => Promise<ExchangeResult>
    /** The member's unexchanged orders on these platforms (bought with their phone). */
    unexchanged: (memberId: number, platforms: Platform[]) => Promise<UnexchangedOrder[]>
    /** handle-platform-push.ts, bound: the platform's answer. */
    push: (
      platform: PlatformId,
      headers: Record<string, string | string[] | undefined>,
      rawBody: string,
    ) => Promise<{ status: number; body: unknown }>
  }
}

const douyin: Platform[] = ['douyin_life', 'douyin_shop']

/**
 * Platform orders exchanged for courses (spec 7: POST /tiktok/order2course, GET /data/ttNotExchange) and the
 * platforms' pushes (POST /douyin/notify, answered in Douyin's protocol; the body is kept as received because the
 * signature covers its exact bytes).
 */
export const exchangeRoutes = apiPlugin({ tags: ['exchange'] }, (r, { exchange }: ExchangeRoutesOptions, app) => {
  r.post(
    '/tiktok/order2course',
    {
      summary: 'Exchange a Douyin order or group-buy voucher for its courses (order number, code, or share text)',
      auth: 'required',
      body: OrderToCourseBody,
      response: ExchangeResponse,
      msg: (d) => (d.already ? '你已兑换过这个订单' : '兑换成功'),
    },
    async (request, memberId) => exchange.exchange(memberId, 'douyin', request.body.order_no),
  )
  r.get(
    '/data/ttNotExchange',
    {
      summary: "The member's Douyin orders bought with their phone and not yet exchanged",
      auth: 'required',
      response: UnexchangedResponse,
    },
    async (_request, memberId) => ({ list: await exchange.unexchanged(memberId, douyin) }),
  )

  app.register(async (push) => {
    push.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body))
    push.post(
      '/douyin/notify',
      {
        schema: {
          tags: ['exchange'],
          summary: 'Douyin life-service push (life_trade_certificate_notify), signed with X-Douyin-Signature',
          body: z.string(),
        },
      },
      async (request, reply) => {
        const answer = await exchange.push('douyin_life', request.headers, request.body as string)
        return reply.code(answer.status).send(answer.body)
      },
    )
  })
})
