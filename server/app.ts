import crypto from 'node:crypto'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyCookie from '@fastify/cookie'
import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import Fastify, { type FastifyServerOptions } from 'fastify'
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import type { Config } from '#server/config.ts'
import type { Database } from '#server/db/database.ts'
import { apiRoutes } from '#server/http/api.ts'
import { authPlugin } from '#server/http/auth.ts'
import { Codes } from '#server/http/codes.ts'
import { registerErrorHandling } from '#server/http/error-handler.ts'
import { requestContextPlugin } from '#server/http/request-context.ts'
import { registerWeb } from '#server/http/web.ts'
import { createServices, defaultIntegrations, type Integrations } from '#server/services.ts'

export const projectRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..')

export interface BuildOptions {
  database: Database
  /** Replace outside systems (SMS, WeChat, clock) with test doubles. */
  integrations?: Partial<Integrations>
  /** Serve pages too: `production` from build/, `development` through Vite. Tests of the API leave it out. */
  web?: 'production' | 'development'
  logger?: FastifyServerOptions['logger']
}

/** Only the path is logged: query strings can carry phones or codes, and headers carry tokens. */
function requestSerializer(req: { method: string; url: string; id: string }) {
  return { method: req.method, path: req.url.split('?')[0], id: req.id }
}

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    serializers: { req: requestSerializer },
    redact: { paths: ['req.headers', 'phone', 'code', 'token', '*.phone', '*.code', '*.token'], censor: '[hidden]' },
  }
}

/** Builds the whole HTTP application on an open database. `main.ts` listens; tests use `app.inject()`. */
export async function buildApp(config: Config, options: BuildOptions) {
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id']
      return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : crypto.randomUUID()
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })

  const integrations = { ...defaultIntegrations(config), ...options.integrations }
  const services = createServices(config, options.database.db, integrations)
  app.decorate('services', services)

  registerErrorHandling(app)
  await app.register(fastifyCookie)
  await app.register(authPlugin, { db: options.database.db })
  await app.register(requestContextPlugin, { db: options.database.db, secureCookies: config.production })

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Zixue API',
        version: '1',
        description: `Every response is { code, msg, data }. Codes:\n\n${Object.entries(Codes)
          .map(([name, c]) => `- ${c.code} ${name}: ${c.msg}`)
          .join('\n')}`,
      },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'ZXB-Token' } } },
    },
    transform: jsonSchemaTransform,
  })
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' })
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger())

  await app.register(apiRoutes, { prefix: '/api', services })

  if (options.web) await registerWeb(app, { mode: options.web, root: projectRoot, services })
  return app
}

declare module 'fastify' {
  interface FastifyInstance {
    services: ReturnType<typeof createServices>
  }
}
