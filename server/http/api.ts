import type { FastifyInstance } from 'fastify'
import { adminRoutes } from '#server/modules/admin/admin.routes.ts'
import { authRoutes } from '#server/modules/auth/auth.routes.ts'
import { catalogueRoutes } from '#server/modules/catalogue/catalogue.routes.ts'
import { homeRoutes } from '#server/modules/home/home.routes.ts'
import { mediaRoutes } from '#server/modules/media/media.routes.ts'
import { playbackApiRoutes } from '#server/modules/media/playback.routes.ts'
import { membersRoutes } from '#server/modules/members/members.routes.ts'
import { overlayRoutes } from '#server/modules/overlays/overlays.routes.ts'
import { wechatRoutes } from '#server/modules/wechat/wechat.routes.ts'
import type { Services } from '#server/services.ts'
import { Codes } from './codes.ts'
import { sendError } from './error-handler.ts'

/** Every API route, under /api. Each domain's routes file declares its own full paths. */
export async function apiRoutes(app: FastifyInstance, opts: { services: Services }) {
  app.get('/health', { schema: { hide: true } }, async () => ({ code: 200, msg: 'ok', data: {} }))

  await app.register(wechatRoutes, { services: opts.services })
  await app.register(authRoutes, { services: opts.services })
  await app.register(membersRoutes, { services: opts.services })
  await app.register(mediaRoutes, { services: opts.services })
  await app.register(catalogueRoutes, { services: opts.services })
  await app.register(homeRoutes, { services: opts.services })
  await app.register(overlayRoutes, { services: opts.services })
  await app.register(playbackApiRoutes, { services: opts.services })
  await app.register(adminRoutes, { services: opts.services })

  // Unknown /api paths answer 404 with the envelope instead of reaching the page renderer.
  app.all('/*', { schema: { hide: true } }, (request, reply) =>
    sendError(reply, Codes.NotFound, `接口不存在：${request.method} ${request.url.split('?')[0]}`),
  )
}
