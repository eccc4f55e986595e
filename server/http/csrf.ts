import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { AppError } from './app-error.ts'
import { Codes } from './codes.ts'

/**
 * Cross-site request forgery guard (issue 12, section 7). A request that changes state (not GET, HEAD or OPTIONS)
 * and carries a cookie but no token header (ZXB-Token, Authorization) could have been sent by a foreign page the
 * member visited: it is refused when its Origin (or, without one, its Referer) is not this site (the public address
 * or the host it was sent to), and when it has neither. Requests with a token header are safe, since no foreign page
 * can set that header without a CORS grant. Providers' payment notifications and the in-process simulators are
 * excepted.
 *
 * Why neither header is refused: every current engine sends Origin with a POST, PUT, PATCH or DELETE, same-origin
 * fetches and form posts included (MDN browser-compat-data, http/headers/Origin: Chrome and Android WebView since
 * always, Safari and iOS WebViews (WKWebView) likewise, Firefox since 70, Edge since 79); older Firefox and Edge sent
 * a Referer instead, which our Referrer-Policy (strict-origin-when-cross-origin) keeps for same-origin requests. So a
 * cookie-carrying state change with neither comes from a stripped or forged request, not from our pages. WeChat's
 * in-app browser is a Chromium WebView (XWeb / X5) on Android and WKWebView on iOS, so it sends Origin on a POST
 * fetch as they do; we found no WeChat document that states it, and could not test a real WeChat client here.
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
  // Browsers send Origin with every POST, PUT, PATCH and DELETE (an opaque one as "null", refused here); a cookie
  // with neither header is refused too (see above). Programs send a token header, or no cookie.
  if (!origin) return true
  return origin !== publicOrigin && origin !== originOf(`${request.protocol}://${request.host}`)
}

export const csrfPlugin = fp(async (app: FastifyInstance, opts: { publicUrl: string }) => {
  const publicOrigin = new URL(opts.publicUrl).origin
  app.addHook('onRequest', (request, _reply, done) => {
    done(
      isCrossSite(request, publicOrigin) ? new AppError(Codes.Forbidden, '请求来源不明，请刷新页面后重试') : undefined,
    )
  })
})
