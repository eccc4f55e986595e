import { z } from 'zod'
import { apiPlugin } from '#server/http/route.ts'
import type { PlatformId } from '#server/integrations/platforms/platform.ts'
import { OrderToCourseBody } from '#shared/api/exchange.ts'
import { ExchangeShops, type ExchangeShop, type Platform } from '#shared/exchange-platforms.ts'
import { ExchangeResponse, UnexchangedResponse, type ExchangeResult, type UnexchangedOrder } from './exchange.schema.ts'

export interface ExchangeRoutesOptions {
  exchange: {
    /** exchange-platform-order.ts, bound: the member, the shop, what they pasted. */
    exchange: (memberId: number, group: ExchangeShop, pasted: string) => Promise<ExchangeResult>
    /** The member's unexchanged orders on these platforms (bought with their phone). */
    unexchanged: (memberId: number, platforms: Platform[]) => Promise<UnexchangedOrder[]>
    /** handle-platform-push.ts, bound: the platform's answer. */
    push: (
      platform: PlatformId,
      headers: Record<string, string | string[] | undefined>,
      rawBody: string,
      query?: Record<string, string | undefined>,
    ) => Promise<{ status: number; body: unknown }>
  }
}

/** Where each platform's pushes arrive (platforms without one reach us through the sync job). */
const pushes = [
  { path: '/douyin/notify', platform: 'douyin_life', what: 'Douyin life-service push, signed with X-Douyin-Signature' },
  { path: '/ksxd/notify', platform: 'kuaishou', what: "Kuaishou shop push, encrypted with the app's message key" },
  { path: '/wechatShop/notify', platform: 'wechat_shop', what: 'WeChat Shop order push, signed in the query string' },
] as const

/**
 * Platform orders exchanged for courses (spec 7: POST /tiktok/order2course, /ksxd/order2course, /xhs/order2course,
 * /wechatShop/order2course and their NotExchange lists, from the ExchangeShops registry) and the platforms' pushes
 * (answered in each platform's protocol; the body is kept as received because the signature covers its bytes).
 */
export const exchangeRoutes = apiPlugin({ tags: ['exchange'] }, (r, { exchange }: ExchangeRoutesOptions, app) => {
  for (const [group, shop] of Object.entries(ExchangeShops) as [ExchangeShop, (typeof ExchangeShops)[ExchangeShop]][]) {
    r.post(
      shop.exchangePath,
      {
        summary: `Exchange a ${group} order for its courses (order number${group === 'douyin' ? ', voucher code' : ''} or share text)`,
        auth: 'required',
        body: OrderToCourseBody,
        response: ExchangeResponse,
        msg: (d) => (d.already ? '你已兑换过这个订单' : '兑换成功'),
      },
      async (request, memberId) => exchange.exchange(memberId, group, request.body.order_no),
    )
    r.get(
      shop.unexchangedPath,
      {
        summary: `The member's ${group} orders bought with their phone and not yet exchanged`,
        auth: 'required',
        response: UnexchangedResponse,
      },
      async (_request, memberId) => ({ list: await exchange.unexchanged(memberId, [...shop.platforms] as Platform[]) }),
    )
  }

  app.register(async (push) => {
    push.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (_req, body, done) =>
      done(null, body),
    )
    for (const p of pushes) {
      push.post(
        p.path,
        { schema: { tags: ['exchange'], summary: p.what, body: z.string() } },
        async (request, reply) => {
          const query = request.query as Record<string, string | undefined>
          const answer = await exchange.push(p.platform, request.headers, request.body as string, query)
          return reply.code(answer.status).send(answer.body)
        },
      )
    }
    // WeChat checks the push URL with a signed GET whose `echostr` is answered back.
    push.get('/wechatShop/notify', { schema: { hide: true } }, async (request, reply) => {
      const query = request.query as Record<string, string | undefined>
      const answer = await exchange.push('wechat_shop', request.headers, '{}', query)
      return reply.code(answer.status).send(answer.status === 200 ? (query.echostr ?? '') : answer.body)
    })
  })
})
