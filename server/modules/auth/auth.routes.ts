import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { requireRole } from '#server/http/auth.ts'
import { emptyEnvelope, envelope, ok } from '#server/http/envelope.ts'
import { MemberProfile } from '#shared/api/members.ts'
import {
  BindPhoneBody,
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
  /** Serve GET /dev/outbox (config.devOutbox: development and demo, never production). */
  devOutbox: boolean
}

/** Sign-in by SMS code, logout and phone binding (spec sections 4–8). */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { auth, devOutbox }) => {
  app.post(
    '/send_code',
    {
      schema: {
        tags: ['auth'],
        summary: 'Send a 4-digit login code by SMS',
        description:
          'Limits: 60 s between sends to one phone, 5 an hour, 10 a day; 20 an hour from one IP (430). 401 bad phone; 402 not a purchaser (ke2); 431 locked for the day.',
        body: SendCodeBody,
        response: { 200: emptyEnvelope },
      },
    },
    async (request) => {
      await auth.sendLoginCode(request.body, context(request))
      return ok({}, '已发送验证码')
    },
  )

  app.post(
    '/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log in with the phone and its SMS code',
        description:
          'Creates the member on the first login. 401/402 phone, 405 wrong code, 406 expired or used code, 431 locked for the day.',
        body: LoginBody,
        response: { 200: envelope(LoginResult) },
      },
    },
    async (request) => {
      const session = await auth.login(request.body)
      request.signedInMemberId = session.member_id
      return ok(session, '登录成功')
    },
  )

  app.post(
    '/logout',
    {
      config: { auth: 'required' },
      schema: {
        tags: ['auth'],
        summary: 'Revoke the current token',
        security: [{ token: [] }],
        response: { 200: emptyEnvelope },
      },
    },
    async (request) => {
      await auth.logout(requireRole(request).sessionId)
      return ok({})
    },
  )

  app.post(
    '/bind_phone_send_code',
    {
      config: { auth: 'required' },
      schema: {
        tags: ['auth'],
        summary: 'Send a code to bind a phone to the signed-in member',
        description: 'Same limits as /send_code. 433 when another member holds the phone.',
        security: [{ token: [] }],
        body: BindPhoneSendCodeBody,
        response: { 200: emptyEnvelope },
      },
    },
    async (request) => {
      await auth.sendBindCode(requireRole(request).memberId, request.body, context(request))
      return ok({}, '已发送验证码')
    },
  )

  app.post(
    '/bind_phone',
    {
      config: { auth: 'required' },
      schema: {
        tags: ['auth'],
        summary: 'Bind the phone with its code',
        description:
          '405 wrong code, 406 expired or used code, 433 phone held by another member. Returns the updated profile.',
        security: [{ token: [] }],
        body: BindPhoneBody,
        response: { 200: envelope(MemberProfile) },
      },
    },
    async (request) => {
      return ok(await auth.bindPhone(requireRole(request).memberId, request.body), '绑定成功')
    },
  )

  // Development only: browser tests and developers read the codes the console provider "sent".
  if (devOutbox) {
    app.get(
      '/dev/outbox',
      {
        schema: {
          tags: ['development'],
          summary: 'Recent SMS codes (development outbox)',
          querystring: OutboxQuery,
          response: { 200: envelope(OutboxList) },
        },
      },
      async (request) => {
        const list = auth.outbox(request.query.phone?.trim()).map((m) => ({
          phone: m.phone,
          code: m.code,
          purpose: m.purpose,
          sent_at: m.sentAt.toISOString(),
        }))
        return ok({ list })
      },
    )
  }
}
