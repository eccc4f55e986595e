import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { AppError } from '#server/http/app-error.ts'
import { signedIn } from '#server/http/request-context.ts'
import { apiPlugin } from '#server/http/route.ts'
import { WechatError } from '#server/integrations/wechat/wechat-client.ts'
import {
  AuthWechatInfoResponse,
  OauthReturnBody,
  OauthStartQuery,
  ShareQuery,
  ShareResponse,
  SubscribeResponse,
  WxLoginResponse,
  WxOpenidResponse,
  WxUnionidResponse,
} from './wechat.schema.ts'
import { BROWSER_NONCE_COOKIE, BROWSER_NONCE_MAX_AGE_S, type WechatService } from './wechat.service.ts'

interface WechatRoutesOptions {
  wechat: WechatService
  /** Set the browser-nonce cookie with Secure (production, behind HTTPS). */
  secureCookies: boolean
  /** The follow QR operators set (settings module), shown with the answer of GET /wechat/subscribe. */
  followQr: () => Promise<{ qr_image: string | null; text: string }>
}

/** WeChat sign-in (spec 4 and 7): the OAuth start, the four code exchanges and the JS-SDK share signature. */
export const wechatRoutes = apiPlugin({ tags: ['wechat'], token: false }, (r, opts: WechatRoutesOptions, app) => {
  const { wechat, secureCookies } = opts
  const nonce = (request: FastifyRequest) => request.cookies[BROWSER_NONCE_COOKIE]

  // The member sees a code and a message; the log gets what WeChat actually said (never the code or a token).
  app.addHook('onError', async (request: FastifyRequest, _reply: FastifyReply, error: Error) => {
    if (error instanceof AppError && error.cause instanceof WechatError) {
      request.log.warn({ errcode: error.cause.errcode, errmsg: error.cause.errmsg }, 'wechat call failed')
    }
  })

  r.raw.get(
    '/wechat/oauth',
    {
      summary: 'Start WeChat OAuth: redirects to the authorize page with a single-use state bound to this browser',
      description:
        'At most WECHAT_OAUTH_PER_IP_PER_10MIN (default 300) starts per client address in 10 minutes; beyond that 429 with the minutes to wait.',
      querystring: OauthStartQuery,
      response: { 302: z.null().describe('Location: the WeChat authorize URL') },
    },
    async (request, reply) => {
      const { location, browserNonce } = await wechat.startOauth({
        ...request.query,
        browserNonce: nonce(request),
        ip: request.ip,
        origin: request.visitorOrigin,
      })
      reply.setCookie(BROWSER_NONCE_COOKIE, browserNonce, {
        path: '/api',
        httpOnly: true,
        sameSite: 'lax',
        secure: secureCookies,
        maxAge: BROWSER_NONCE_MAX_AGE_S,
      })
      reply.header('cache-control', 'no-store')
      return reply.redirect(location, 302)
    },
  )

  r.post(
    '/wx_login',
    { summary: 'Sign in with a WeChat OAuth code', body: OauthReturnBody, response: WxLoginResponse },
    async (request) => signedIn(request, await wechat.login(request.body, nonce(request))),
  )

  r.post(
    '/wx_get_openid',
    {
      summary: 'The openid of a WeChat OAuth code (no session)',
      description:
        'Signed in (ZXB-Token): the openid is also kept for the member for 6 hours, for WeChat Pay JSAPI. 446 in ' +
        'snapshot mode (a page opened from Moments): the virtual openid is neither returned nor kept.',
      body: OauthReturnBody,
      response: WxOpenidResponse,
    },
    async (request, memberId) => wechat.openid(request.body, nonce(request), memberId),
  )

  r.post(
    '/wx/code2unionid',
    {
      summary: 'The unionid and openid of a WeChat OAuth code (no session)',
      body: OauthReturnBody,
      response: WxUnionidResponse,
    },
    async (request) => wechat.unionid(request.body, nonce(request)),
  )

  r.post(
    '/authWechatInfo',
    {
      auth: 'required',
      token: true,
      summary: 'Bind the WeChat identity of an OAuth code to the signed-in member',
      body: OauthReturnBody,
      response: AuthWechatInfoResponse,
    },
    async (request, memberId) => wechat.bind(memberId, request.body, nonce(request)),
  )

  r.get(
    '/wechat/subscribe',
    {
      token: true,
      summary:
        'Whether the member follows the Official Account (null: a visitor, or no WeChat identity), with the follow QR',
      response: SubscribeResponse,
    },
    async (_request, memberId) => ({
      subscribed: memberId === null ? null : await wechat.subscribed(memberId),
      ...(await opts.followQr()),
    }),
  )

  r.get(
    '/wechat/share',
    { summary: 'JS-SDK wx.config signature for a page of this site', querystring: ShareQuery, response: ShareResponse },
    async (request) => wechat.shareSignature(request.query.url, request.visitorOrigin),
  )
})
