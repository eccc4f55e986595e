import type { FastifyRequest } from 'fastify'
import { requireRole } from '#server/http/auth.ts'
import { emptyEnvelope, envelope } from '#server/http/envelope.ts'
import { signedIn } from '#server/http/request-context.ts'
import { signedOut } from '#server/http/session-cookie.ts'
import { apiPlugin } from '#server/http/route.ts'
import type { Bound } from '#server/use-cases/commerce-deps.ts'
import type { bindPhone } from '#server/use-cases/bind-phone.ts'
import {
  BindPhoneBody,
  BindPhoneResult,
  BindPhoneSendCodeResult,
  BindPhoneSendCodeBody,
  LoginBody,
  LoginResult,
  OutboxList,
  OutboxQuery,
  SendCodeBody,
} from './auth.schema.ts'
import type { AuthService, RequestContext } from './auth.service.ts'

const context = (request: FastifyRequest): RequestContext => ({ ip: request.ip, log: request.log })

interface AuthRoutesOptions {
  auth: AuthService
  /** POST /bind_phone: the code, then the phone or the merge with its holder (server/use-cases/bind-phone.ts). */
  bindPhone: Bound<typeof bindPhone>
  /** Serve GET /dev/outbox (config.devOutbox: development and demo, never production). */
  devOutbox: boolean
}

/** Sign-in by SMS code, logout and phone binding (spec sections 4–8). */
export const authRoutes = apiPlugin(
  { tags: ['auth'], token: false },
  (r, { auth, bindPhone, devOutbox }: AuthRoutesOptions) => {
    r.post(
      '/send_code',
      {
        summary: 'Send a 4-digit login code by SMS',
        description:
          'Limits: 60 s between sends to one phone, 5 an hour, 10 a day; 20 an hour from one IP (430). 401 bad phone; 402 not a purchaser (ke2).',
        body: SendCodeBody,
        response: emptyEnvelope,
        msg: '已发送验证码',
      },
      async (request) => auth.sendLoginCode(request.body, context(request)),
    )

    r.post(
      '/login',
      {
        summary: 'Log in with the phone and its SMS code',
        description:
          'Creates the member on the first login. 401/402 phone, 405 wrong code (the fifth kills the code), 406 expired or ' +
          'used code; 429 with Retry-After while wrong codes slow this phone and address down.',
        body: LoginBody,
        response: envelope(LoginResult),
        msg: '登录成功',
      },
      async (request) => signedIn(request, await auth.login(request.body, context(request))),
    )

    r.post(
      '/logout',
      {
        auth: 'required',
        token: true,
        summary: 'Revoke the current token',
        description: 'Also clears the session cookie of server-rendered pages.',
        response: emptyEnvelope,
      },
      async (request) => {
        await auth.logout(requireRole(request).sessionId)
        signedOut(request)
      },
    )

    // The session cookie of server-rendered member pages (docs/decisions/2026-11-26-member-session-cookie.md): an
    // answer to a bearer-token call sets it (server/http/session-cookie.ts); a browser without the token clears it.
    r.delete(
      '/session/cookie',
      {
        summary: "Clear this browser's session cookie of server-rendered pages",
        description: 'For a browser that no longer holds the token the cookie carries. Ends no session.',
        response: emptyEnvelope,
      },
      async (request) => signedOut(request),
    )

    r.post(
      '/bind_phone_send_code',
      {
        auth: 'required',
        token: true,
        summary: 'Send a code to bind a phone to the signed-in member',
        description:
          'Same limits as /send_code. When another member holds the phone and the two may become one, `merge` is ' +
          'true; 433 when they may not (staff, two WeChat users, the signed-in member has a phone).',
        body: BindPhoneSendCodeBody,
        response: envelope(BindPhoneSendCodeResult),
        msg: '已发送验证码',
      },
      async (request, memberId) => auth.sendBindCode(memberId, request.body, context(request)),
    )

    r.post(
      '/bind_phone',
      {
        auth: 'required',
        token: true,
        summary: 'Bind the phone with its code',
        description:
          '405 wrong code, 406 expired or used code, 433 phone held by a member who cannot be merged. When another ' +
          'member held the phone, the two become one (that member survives; `merged`, and a new `token`).',
        body: BindPhoneBody,
        response: envelope(BindPhoneResult),
        msg: '绑定成功',
      },
      async (request, memberId) => {
        const result = await bindPhone(memberId, request.body)
        // A merge ends this token and issues one for the member who survives.
        if (result.merged) signedIn(request, result)
        return result
      },
    )

    // Development only: browser tests and developers read the codes the console provider "sent".
    if (devOutbox) {
      r.get(
        '/dev/outbox',
        {
          tags: ['development'],
          summary: 'Recent SMS codes (development outbox)',
          querystring: OutboxQuery,
          response: envelope(OutboxList),
        },
        async (request) => {
          const list = auth.outbox(request.query.phone?.trim()).map((m) => ({
            phone: m.phone,
            code: m.code,
            purpose: m.purpose,
            sent_at: m.sentAt.toISOString(),
          }))
          return { list }
        },
      )
    }
  },
)
