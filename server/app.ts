import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyCookie from '@fastify/cookie'
import fastifyMultipart from '@fastify/multipart'
import fastifyStatic from '@fastify/static'
import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import Fastify, { LogController, type FastifyServerOptions } from 'fastify'
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod'
import type { Config } from '#server/config.ts'
import type { Database } from '#server/db/database.ts'
import { pageServices } from '#server/page-services.ts'
import { apiRoutes } from '#server/routes.ts'
import { staffAuditPlugin } from '#server/http/staff-audit.ts'
import { idempotencyPlugin } from '#server/modules/orders/idempotency.ts'
import { authPlugin } from '#server/http/auth.ts'
import { createBusinessEvents } from '#server/http/business-events.ts'
import { healthRoutes, readinessChecks } from '#server/http/health.ts'
import { createMetrics, instrumentRoutes, metricsRoute } from '#server/http/metrics.ts'
import { jobQueueDepth } from '#server/jobs/jobs.repository.ts'
import { Codes } from '#server/http/codes.ts'
import { registerErrorHandling } from '#server/http/error-handler.ts'
import { inputGuardPlugin } from '#server/http/input-guard.ts'
import { securityHeadersPlugin } from '#server/http/security-headers.ts'
import { rateLimitPlugin } from '#server/http/rate-limit.ts'
import { visitorOriginPlugin } from '#server/http/origin.ts'
import { csrfPlugin } from '#server/http/csrf.ts'
import { requestContextPlugin } from '#server/http/request-context.ts'
import { sessionCookiePlugin } from '#server/http/session-cookie.ts'
import { registerWeb } from '#server/http/web.ts'
import { registerAccessLog } from '#server/http/access-log.ts'
import { registerCompression } from '#server/http/compression.ts'
import { lazyChildLogger } from '#server/http/lazy-logger.ts'
import { busListening, clearAllCaches, dropTagged } from '#server/http/public-cache.ts'
import { createSerializerCompiler } from '#server/http/serializer.ts'
import { listenForInvalidations } from '#server/db/cache-bus.ts'
import { outboxPage } from '#server/modules/auth/outbox.page.ts'
import { ImageRules } from '#server/modules/media/media.service.ts'
import { hlsRoutes } from '#server/modules/media/playback.routes.ts'
import {
  ALIPAY_SIM_PREFIX,
  createPaymentSimulators,
  DEMO_REFUND_DELAY_MS,
  WECHATPAY_SIM_PREFIX,
  type PaymentSimulators,
} from '#server/integrations/payments/simulators.ts'
import {
  createImageVariants,
  imageVariantRoutes,
  type ImageVariants,
} from '#server/integrations/storage/image-variants.ts'
import { storeFiles } from '#server/integrations/storage/serve.ts'
import { mediaCacheControl } from '#server/integrations/storage/stores.ts'
import { wechatSimulator } from '#server/integrations/wechat/wechat-simulator.ts'
import { createDouyinSimulator, type DouyinSimulator } from '#server/integrations/platforms/douyin-simulator.ts'
import { DOUYIN_SIM_PREFIX, SimulatedDouyin } from '#server/integrations/platforms/platforms-config.ts'
import { mountShopSimulators, type ShopSimulators } from '#server/integrations/platforms/shop-simulators.ts'
import { createServices, defaultIntegrations, type Integrations, type Services } from '#server/services.ts'

const projectRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..')

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

/** Where pages may load media from besides this origin: the CDN, and S3 itself when segments redirect there. */
function mediaOrigins(config: Config) {
  if (config.storage.kind !== 's3') return []
  const bases = [config.storage.publicBase]
  if (config.storage.segmentRedirect) bases.push(config.storage.presignEndpoint ?? config.storage.endpoint ?? '')
  return [...new Set(bases.filter((b) => /^https?:/.test(b)).map((b) => new URL(b).origin))]
}

/**
 * With TLS_CERT_FILE and TLS_KEY_FILE the server terminates TLS itself: HTTP/2 for browsers that negotiate it
 * (ALPN `h2`), HTTP/1.1 over TLS for the rest (`allowHTTP1`). Fastify's HTTP/2 request and reply objects are
 * Node's compatibility API, which the routes, the static files and React Router's request listener use as they use
 * HTTP/1.1's; the instance stays typed as the HTTP/1.1 one (server/http/tls.test.ts serves every kind over both).
 */
function tlsOptions(config: Config) {
  if (!config.tls) return {}
  const https = {
    allowHTTP1: true,
    cert: fs.readFileSync(config.tls.certFile),
    key: fs.readFileSync(config.tls.keyFile),
  }
  return { http2: true, https } as unknown as FastifyServerOptions
}

/** Builds the whole HTTP application on an open database. `main.ts` listens; tests use `app.inject()`. */
export async function buildApp(config: Config, options: BuildOptions) {
  const app = Fastify({
    ...tlsOptions(config),
    logger: options.logger ?? loggerOptions(config),
    // One line per request from access-log.ts (fast reads capped per second) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id']
      return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : crypto.randomUUID()
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  })
  app.setValidatorCompiler(validatorCompiler)
  // The tests hold every answer's compiled writer against zod's check (server/http/serializer.ts).
  app.setSerializerCompiler(createSerializerCompiler({ verify: config.env === 'test' }))
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    done()
  })
  registerAccessLog(app, config.accessLog)

  // Metrics of this app (every route timed from here on) and its business-event log.
  const { db, pool } = options.database
  const metrics = createMetrics({ pool, queueDepth: () => jobQueueDepth(db) })
  instrumentRoutes(app, metrics)
  const events = createBusinessEvents(app.log.child({ component: 'events' }), (event) =>
    metrics.businessEvents.inc({ event }),
  )

  const integrations = { ...(await defaultIntegrations(config, db)), ...options.integrations }
  const services = await createServices(config, db, integrations, { metrics, events })
  app.decorate('services', services)
  // Writes in any process drop the cached reads they changed here (server/http/public-cache.ts).
  const cacheBus = await listenForInvalidations({
    url: options.database.url,
    onTags: dropTagged,
    onGap: clearAllCaches,
    onListening: busListening,
    log: app.log.child({ component: 'cache-bus' }),
  })
  app.addHook('onClose', () => cacheBus.close())

  registerErrorHandling(app)
  await registerCompression(app)
  await app.register(fastifyCookie)
  await app.register(inputGuardPlugin)
  await app.register(securityHeadersPlugin, {
    tls: config.publicUrl.startsWith('https:'),
    mediaOrigins: mediaOrigins(config),
    development: options.web === 'development',
  })
  if (config.rateLimit) await app.register(rateLimitPlugin, { pool, ...config.rateLimit })
  await app.register(csrfPlugin, { publicUrl: config.publicUrl })
  await app.register(visitorOriginPlugin, { publicUrl: config.publicUrl, trustedHosts: config.trustedHosts })
  // Default ceilings for multipart requests (one image); a route that takes files passes its own to request.file().
  await app.register(fastifyMultipart, {
    limits: { fileSize: ImageRules.maxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 100 },
  })
  await app.register(authPlugin, { resolve: services.resolveToken, stepUp: services.stepUp })
  await app.register(requestContextPlugin, { touches: services.attribution, secureCookies: config.production })
  // The session cookie of server-rendered member pages: set on sign-in, cleared on logout (never read by /api).
  await app.register(sessionCookiePlugin, { https: config.publicUrl.startsWith('https:') || config.production })
  await app.register(staffAuditPlugin, { record: services.audit.record, now: integrations.now })
  await app.register(idempotencyPlugin, { keys: services.idempotencyKeys, now: integrations.now })

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
  if (!config.production || config.swaggerUi) await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' })
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger())

  await app.register(healthRoutes, {
    prefix: '/api',
    checks: readinessChecks({ pool, stores: services.storage, log: app.log }),
  })
  if (config.metricsToken) await app.register(metricsRoute, { metrics, token: config.metricsToken })
  await app.register(apiRoutes, { prefix: '/api', services })

  // Signed HLS playlists, segments (from private storage) at /media/hls/; more specific than the folder below.
  await app.register(hlsRoutes, { playback: services.playback })
  // Public media (posters, uploaded images): from the media folder, or streamed from the public bucket when no CDN
  // address (S3_PUBLIC_URL) is set.
  if (config.storage.kind === 's3') {
    if (config.storage.servePublic)
      await app.register(storeFiles, { store: integrations.storage.public, under: '/media/' })
  } else {
    fs.mkdirSync(config.mediaDir, { recursive: true })
    await app.register(fastifyStatic, {
      root: config.mediaDir,
      prefix: '/media/',
      decorateReply: false,
      index: false,
      dotfiles: 'deny',
      setHeaders(reply, filePath) {
        reply.header('x-content-type-options', 'nosniff')
        reply.header(
          'cache-control',
          mediaCacheControl(path.relative(config.mediaDir, filePath).split(path.sep).join('/')),
        )
      },
    })
  }
  // Resized copies of covers and other images (/img/<width>/…), made once and kept in the public store.
  const imageVariants = createImageVariants({
    store: integrations.storage.public,
    webRoot: options.web === 'production' ? path.join(config.buildDir, 'client') : path.join(projectRoot, 'public'),
  })
  app.decorate('imageVariants', imageVariants)
  await app.register(imageVariantRoutes, { variants: imageVariants, store: integrations.storage.public })
  // Development and demo only: the SMS codes the console provider "sent" (never in production, see config.ts).
  if (config.devOutbox) await app.register(outboxPage, { auth: services.auth })
  if (config.wechat.simulated) {
    // Demo, development and tests: WeChat's OAuth pages and API, served by this process (no AppID configured).
    await app.register(wechatSimulator, {
      prefix: '/__sim/wechat',
      appId: config.wechat.appId,
      appSecret: config.wechat.appSecret,
      redirectHosts: [new URL(config.publicUrl).hostname],
      publicBase: config.wechat.openBase,
      now: integrations.now,
    })
  }
  // Demo, development and tests: WeChat Pay and Alipay simulators with the TEST keys (no merchant configured;
  // never in production, see payments-config.ts). Their cashier pages stand in for the providers' payment pages.
  const { wechat: wechatPay, alipay } = config.payments
  const paymentSimulators =
    wechatPay.simulated || alipay.simulated
      ? createPaymentSimulators({
          publicBase: () => config.publicUrl,
          now: integrations.now,
          fetch: integrations.paymentsFetch,
          refundDelayMs: config.env === 'test' ? undefined : DEMO_REFUND_DELAY_MS,
          wechatSignWith: wechatPay.simulatorSignWith,
        })
      : null
  if (paymentSimulators && wechatPay.simulated)
    await app.register(paymentSimulators.wechat.plugin, { prefix: WECHATPAY_SIM_PREFIX })
  if (paymentSimulators && alipay.simulated)
    await app.register(paymentSimulators.alipay.plugin, { prefix: ALIPAY_SIM_PREFIX })
  app.decorate('paymentSimulators', paymentSimulators)
  // Demo, development and tests: Douyin's voucher and shop APIs, its pushes and a page to buy a test order (no
  // Douyin credentials configured; never in production, see platforms-config.ts).
  const douyinSimulator = config.platforms.douyinSimulated
    ? createDouyinSimulator({
        ...SimulatedDouyin,
        notifyUrl: () => `${config.publicUrl}/api/douyin/notify`,
        fetch: integrations.platformFetch,
        now: integrations.now,
      })
    : null
  if (douyinSimulator) await app.register(douyinSimulator.plugin, { prefix: DOUYIN_SIM_PREFIX })
  app.decorate('douyinSimulator', douyinSimulator)
  app.decorate(
    'shopSimulators',
    await mountShopSimulators(app, config.platforms, {
      publicUrl: config.publicUrl,
      fetch: integrations.platformFetch,
      now: integrations.now,
    }),
  )

  if (options.web)
    await registerWeb(app, {
      mode: options.web,
      root: projectRoot,
      buildDir: config.buildDir,
      services: pageServices(services),
      resolveToken: services.resolveToken,
    })
  return app
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services
    /** The in-process payment simulators (demo, development, tests), or null when real merchants are configured. */
    paymentSimulators: PaymentSimulators | null
    /** The in-process Douyin simulator (demo, development, tests), or null when Douyin credentials are configured. */
    douyinSimulator: DouyinSimulator | null
    /** The in-process Kuaishou, Xiaohongshu and WeChat Shop simulators (each null when its credentials are set). */
    shopSimulators: ShopSimulators
    /** Resized images (server/integrations/storage/image-variants.ts): the demo's covers are made ahead (main.ts). */
    imageVariants: ImageVariants
  }
}
