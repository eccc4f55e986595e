import type { FastifyInstance } from 'fastify'
import { rfc3339Beijing } from '#shared/time.ts'
import { encryptPlatformCertificate } from '../wechatpay-certificates.ts'
import { aesNonce, type SimContext } from './context.ts'
import { checkRequest, fail, send } from './signing.ts'

// The platform certificates WeChat Pay lists and renews.

/** Switches to `nextPlatform`, as WeChat Pay does when it renews its certificate: both stay listed. */
export function rotatePlatformCertificate(ctx: SimContext) {
  const next = ctx.options.nextPlatform
  if (!next) throw new Error('no next platform certificate configured')
  ctx.platform.current = next
  if (!ctx.platform.listed.includes(next)) ctx.platform.listed.push(next)
}

/** GET /v3/certificates: every listed certificate, encrypted with the APIv3 key. */
function certificatesJson(ctx: SimContext) {
  const at = ctx.options.now()
  return {
    data: ctx.platform.listed
      .filter((p) => p.certificate)
      .map((p) =>
        encryptPlatformCertificate({
          certificatePem: p.certificate!,
          apiV3Key: ctx.options.apiV3Key,
          nonce: aesNonce(),
          effectiveTime: rfc3339Beijing(new Date(at.getTime() - 86_400_000)),
          expireTime: rfc3339Beijing(new Date(at.getTime() + 5 * 365 * 86_400_000)),
        }),
      ),
  }
}

export function certificateRoutes(app: FastifyInstance, ctx: SimContext) {
  app.get('/v3/certificates', { schema: { hide: true } }, async (request, reply) => {
    const bad = checkRequest(ctx, request, '')
    if (bad) return fail(ctx, reply, ...bad)
    return send(ctx, reply, 200, certificatesJson(ctx))
  })
}
