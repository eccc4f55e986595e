import type { FastifyInstance } from 'fastify'
import type { Services } from '#server/services.ts'
import { Codes } from './codes.ts'
import { sendError } from './error-handler.ts'

/** Every API route, under /api. Each domain's routes file declares its own full paths. */
export async function apiRoutes(app: FastifyInstance, opts: { services: Services }) {
  void opts
  app.get('/health', { schema: { hide: true } }, async () => ({ code: 200, msg: 'ok', data: {} }))

  // Unknown /api paths answer 404 with the envelope instead of reaching the page renderer.
  app.all('/*', { schema: { hide: true } }, (request, reply) =>
    sendError(reply, Codes.NotFound, `接口不存在：${request.method} ${request.url.split('?')[0]}`),
  )
}
