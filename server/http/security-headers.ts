import crypto from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import helmet from 'helmet'

export interface SecurityHeaderOptions {
  /** Served over TLS (PUBLIC_URL is https): HSTS and `upgrade-insecure-requests`. */
  tls: boolean
  /** Origins media come from besides this one: the CDN (S3_PUBLIC_URL), presigned segment redirects. */
  mediaOrigins: string[]
  /** Vite's development server injects its own scripts and a websocket: no CSP there. */
  development: boolean
}

/** WeChat avatars (sign-in with WeChat stores the profile picture's address). */
const wechatImages = ['https://thirdwx.qlogo.cn', 'https://wx.qlogo.cn']
/** The WeChat JS-SDK (share, pay bridge inside WeChat). */
const wechatSdk = 'https://res.wx.qq.com'

/**
 * Security headers on every answer (docs/decisions/2026-11-25-security-headers.md). Helmet sets them on the raw
 * response in onRequest, so pages rendered by React Router (which take over the raw response) carry them too.
 * Helmet's middleware is built once here: @fastify/helmet rebuilt it (parsing every directive) on each request.
 * Scripts: our own files, the WeChat SDK and inline scripts carrying this response's nonce (React Router's
 * hydration data and module loader; server/http/web.ts hands the nonce to the render and rewrites it into cached
 * public pages). The provider simulators' pages (demo and tests only) keep 'unsafe-inline'. The service chat is a
 * link (navigation), which a CSP does not govern.
 */
const nonces = new WeakMap<ServerResponse, string>()

/** The CSP nonce of this response's inline scripts; undefined in development (no CSP) and on API routes. */
export function cspNonceOf(res: ServerResponse): string | undefined {
  return nonces.get(res)
}

/** Pages of the local provider simulators (demo and tests) carry small inline scripts of their own. */
const simulatorPages = /^\/__sim\//

function inlineScripts(req: IncomingMessage, res: ServerResponse) {
  const nonce = nonces.get(res)
  return simulatorPages.test(req.url ?? '') || !nonce ? "'unsafe-inline'" : `'nonce-${nonce}'`
}

/**
 * API routes answer JSON (or, for the API explorer, HTML that loads only script files): no inline script runs in
 * them, so their headers need no nonce and are the same every time. Decided by the route that matched, not the URL:
 * an unknown /api/ address that the page catch-all (`/*`, server/http/web.ts) renders is a page.
 */
const apiRoute = /^\/api\//

/** The headers a helmet middleware sets when it needs nothing from the request, worked out once. */
function fixedHeaders(applyHeaders: ReturnType<typeof helmet>) {
  const headers = new Map<string, string>()
  const res = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  }
  applyHeaders({} as IncomingMessage, res as unknown as ServerResponse, () => {})
  return [...headers]
}

export const securityHeadersPlugin = fp(async (app: FastifyInstance, opts: SecurityHeaderOptions) => {
  const media = ["'self'", 'blob:', ...opts.mediaOrigins]
  const headersWith = (scriptSrc: (string | typeof inlineScripts)[]) =>
    helmet({
      contentSecurityPolicy: opts.development
        ? false
        : {
            useDefaults: false,
            directives: {
              'default-src': ["'self'"],
              'script-src': scriptSrc,
              'script-src-attr': ["'none'"],
              'style-src': ["'self'", "'unsafe-inline'"],
              'img-src': ["'self'", 'data:', 'blob:', ...opts.mediaOrigins, ...wechatImages, wechatSdk],
              'media-src': media,
              'connect-src': ["'self'", ...opts.mediaOrigins],
              'worker-src': ["'self'", 'blob:'],
              'font-src': ["'self'", 'data:'],
              'object-src': ["'none'"],
              'base-uri': ["'self'"],
              'form-action': ["'self'"],
              'frame-src': ["'self'"],
              'frame-ancestors': ["'self'"],
              ...(opts.tls ? { 'upgrade-insecure-requests': [] } : {}),
            },
          },
      // x-frame-options SAMEORIGIN for browsers without frame-ancestors.
      frameguard: { action: 'sameorigin' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: opts.tls ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      // Media and images are loaded by the WeChat browser from the CDN; the default same-origin would block nothing
      // useful here and break embedding of our own posters elsewhere.
      crossOriginResourcePolicy: { policy: 'same-site' },
      crossOriginEmbedderPolicy: false,
    })
  const applyHeaders = headersWith(["'self'", inlineScripts, wechatSdk])
  // An API answer's headers are set from this list: building the policy and drawing a nonce on every call cost
  // more than the rest of a cached read.
  const apiHeaders = fixedHeaders(headersWith(["'self'", wechatSdk]))
  app.addHook('onRequest', (request, reply, done) => {
    if (apiRoute.test(request.routeOptions.url ?? '')) {
      for (const [name, value] of apiHeaders) reply.raw.setHeader(name, value)
      return done()
    }
    if (!opts.development) nonces.set(reply.raw, crypto.randomBytes(16).toString('base64'))
    applyHeaders(request.raw, reply.raw, (err) => done(err as Error | undefined))
  })
})
