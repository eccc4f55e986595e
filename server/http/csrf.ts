import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { AppError } from './app-error.ts'
import { Codes } from './codes.ts'

/**
 * Cross-site request forgery guard (issue 12, section 7). A request that changes state (not GET, HEAD or OPTIONS)
 * and carries a cookie but no token header (ZXB-Token, Authorization) could have been sent by a foreign page the
 * member visited: it is refused when its Origin (or, without one, its Referer) is not this site (the public address
 * or the host it was sent to). Requests with a token header are safe, since no foreign page can set that header
 * without a CORS grant. Providers' payment notifications and the in-process simulators are excepted.
 */
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])
const excepted = /^\/(api\/pay\/notify\/|__sim\/)/

function originOf(value: string | undefined) {
  if (!value) return null
  try {
    return new URL(value).origin
  } catch {
    return 'invalid'
  }
}

function isCrossSite(request: FastifyRequest, publicOrigin: string) {
  if (safeMethods.has(request.method) || excepted.test(request.url)) return false
  const headers = request.headers
  if (!headers.cookie || headers['zxb-token'] || headers.authorization) return false
  const origin = originOf(headers.origin) ?? originOf(headers.referer)
  // Browsers send Origin with every POST, PUT, PATCH and DELETE (an opaque one as "null", refused here); a request
  // with neither header comes from a program, not from a page a member was lured to.
  if (!origin) return false
  return origin !== publicOrigin && origin !== originOf(`${request.protocol}://${request.host}`)
}

export const csrfPlugin = fp(async (app: FastifyInstance, opts: { publicUrl: string }) => {
  const publicOrigin = new URL(opts.publicUrl).origin
  app.addHook('onRequest', async (request) => {
    if (isCrossSite(request, publicOrigin)) throw new AppError(Codes.Forbidden, '请求来源不明，请刷新页面后重试')
  })
})
