import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The origin the visitor used (`http://192.168.1.20:3000`) when its host is trusted (TRUSTED_HOSTS or
     * PUBLIC_URL's), else PUBLIC_URL's origin: where payment and sign-in pages send the visitor back to.
     */
    visitorOrigin: string
  }
}

/**
 * The origin to send a visitor back to: the request's own scheme and host when the host is one of `trustedHosts`
 * (host[:port], lower case), otherwise `publicUrl`'s origin. A Host header is whatever the client sent, so an
 * unknown one never makes a return address (open redirects, poisoned links); the allow-list is what lets a phone
 * on the LAN try the demo at the address it used.
 */
export function visitorOrigin(
  request: Pick<FastifyRequest, 'host' | 'protocol'>,
  publicUrl: string,
  trustedHosts: readonly string[],
) {
  const publicOrigin = new URL(publicUrl).origin
  const host = (request.host ?? '').toLowerCase()
  if (!host || !trustedHosts.includes(host)) return publicOrigin
  try {
    const url = new URL(`${request.protocol === 'https' ? 'https' : 'http'}://${host}`)
    return url.host === host ? url.origin : publicOrigin
  } catch {
    return publicOrigin
  }
}

/**
 * `request.visitorOrigin` on every request (server/app.ts), worked out when a route reads it (payments, sign-in,
 * share links): the other requests never parse a URL for it.
 */
export const visitorOriginPlugin = fp(
  async (app: FastifyInstance, opts: { publicUrl: string; trustedHosts: readonly string[] }) => {
    const trusted = [...new Set([new URL(opts.publicUrl).host, ...opts.trustedHosts.map((h) => h.toLowerCase())])]
    app.decorateRequest('visitorOrigin', {
      getter(this: FastifyRequest) {
        return visitorOrigin(this, opts.publicUrl, trusted)
      },
    })
  },
  { name: 'visitor-origin' },
)
