import { z } from 'zod'
import { envelope } from '#server/http/envelope.ts'

/**
 * A path on this site: starts with one `/` (not `//` or `/\`, which browsers read as another host) and carries no
 * backslash or control character. The service resolves it against the public URL and checks the origin again.
 */
const SitePath = z
  .string()
  .max(500)
  // eslint-disable-next-line no-control-regex
  .refine((p) => /^\/(?![/\\])/.test(p) && !/[\\\u0000-\u001f\u007f]/.test(p), { message: '只能是本站的相对路径' })

export const OauthStartQuery = z.object({
  scope: z.enum(['snsapi_base', 'snsapi_userinfo']).default('snsapi_userinfo'),
  path: SitePath.default('/'),
  login1: z
    .string()
    .regex(/^[\w-]{1,64}$/)
    .optional(),
})
export type OauthStartQuery = z.infer<typeof OauthStartQuery>

/** What WeChat appends to the return address: the one-time code and our state. */
export const OauthReturnBody = z.object({
  code: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\w-]+$/),
  state: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9]+$/),
})
export type OauthReturnBody = z.infer<typeof OauthReturnBody>

export const WxLoginResponse = envelope(
  z.object({
    token: z.string(),
    expire_in: z.number().int().describe('seconds'),
    openid: z.string(),
  }),
)

export const WxOpenidResponse = envelope(z.object({ openid: z.string() }))

export const WxUnionidResponse = envelope(
  z.object({
    unionid: z.string().nullable().describe('null when the Official Account is not bound to an Open Platform account'),
    openid: z.string(),
  }),
)

export const AuthWechatInfoResponse = envelope(
  z.object({
    openid: z.string(),
    unionid: z.string().nullable(),
    nickname: z.string(),
    avatar: z.string().nullable(),
  }),
)

export const ShareQuery = z.object({ url: z.string().min(1).max(1000) })
export type ShareQuery = z.infer<typeof ShareQuery>

export const ShareResponse = envelope(
  z.object({
    appId: z.string(),
    timestamp: z.number().int(),
    nonceStr: z.string(),
    signature: z.string(),
  }),
)

/** GET /wechat/subscribe (/data/follow). */
export const SubscribeResponse = envelope(
  z.object({
    subscribed: z
      .boolean()
      .nullable()
      .describe("WeChat's user info `subscribe`; null for a visitor or a member who never signed in with WeChat"),
    qr_image: z.string().nullable().describe('The follow QR operators uploaded; null: none yet'),
    text: z.string(),
  }),
)
