import crypto from 'node:crypto'
import type { ServerResponse } from 'node:http'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import fastifyStatic from '@fastify/static'
import { createRequestListener } from '@react-router/node'
import type { FastifyInstance } from 'fastify'
import { LRUCache } from 'lru-cache'
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router'
import type { PageServices } from '#server/page-services.ts'
import { onInvalidation } from './public-cache.ts'
import { cspNonceOf } from './security-headers.ts'

type ContextKey<T> = Parameters<RouterContextProvider['set']>[0] & { defaultValue?: T }
type Build = ServerBuild & {
  entry: { module: { servicesContext?: ContextKey<PageServices>; cspNonceContext?: ContextKey<string | undefined> } }
}

export interface WebOptions {
  /** `production` serves build/; `development` runs Vite in middleware mode with hot reload. */
  mode: 'production' | 'development'
  root: string
  /** The production build (config.buildDir). */
  buildDir: string
  /** What loaders may call (no database handle, no secrets). */
  services: PageServices
}

function loadContextFor(build: Build, services: PageServices) {
  const key = build.entry.module.servicesContext
  const nonceKey = build.entry.module.cspNonceContext
  if (!key || !nonceKey) throw new Error('app/entry.server.tsx must export servicesContext and cspNonceContext')
  /** `nonce`: the CSP nonce the page's inline scripts carry (security-headers.ts). */
  return (nonce?: string) => {
    const context = new RouterContextProvider()
    context.set(key, services)
    if (nonce) context.set(nonceKey, nonce)
    return context
  }
}

/**
 * Cached public pages are rendered once for everyone with this stand-in nonce (random per process, so no stored
 * text can name it), and each answer gets its own response's nonce written over it.
 */
const NONCE_STAND_IN = `zx-nonce-${crypto.randomBytes(12).toString('hex')}`

/**
 * How the nonce reaches a page rendered by React Router's listener, which sees only a fetch Request: a request header
 * set here on every page request (any value a client sent in it is overwritten or removed first).
 */
const NONCE_HEADER = 'x-zx-csp-nonce'

const STAND_IN_BYTES = Buffer.from(NONCE_STAND_IN)

/** A rendered page cut where the stand-in nonce stands: each answer joins the parts with its own nonce. */
function splitAtNonce(body: Buffer): Buffer[] {
  const parts: Buffer[] = []
  let from = 0
  for (let at = body.indexOf(STAND_IN_BYTES); at !== -1; at = body.indexOf(STAND_IN_BYTES, from)) {
    parts.push(body.subarray(from, at))
    from = at + STAND_IN_BYTES.length
  }
  parts.push(body.subarray(from))
  return parts
}

/** The page's bytes with this response's nonce, without decoding and encoding the page again. */
function withNonce(parts: Buffer[], res: ServerResponse) {
  if (parts.length === 1) return parts[0]!
  const nonce = Buffer.from(cspNonceOf(res) ?? '')
  return Buffer.concat(parts.flatMap((part, i) => (i === 0 ? [part] : [nonce, part])))
}

/**
 * Public pages render the same for everyone (the login token lives in localStorage, spec 4), so their HTML is kept
 * for a few seconds, like the catalogue data under them: the server renders each at most once per interval.
 */
const PUBLIC_PAGE =
  /^\/(?:$|\?|boutique(?:$|\?)|vip(?:$|\?)|ke(?:$|\?)|index1(?:$|\?)|list\/\d+(?:$|\?)|course\/\d+(?:\.html)?(?:$|\?)|teacher\/\d+(?:$|\?)|foryou(?:\/\d+)?(?:$|\?))/

export function isPublicPage(url: string) {
  return PUBLIC_PAGE.test(url)
}

interface CachedPage {
  status: number
  headers: [string, string][]
  /** The HTML, split at the stand-in nonce (splitAtNonce). */
  body: Buffer[]
}

/** Everything that is not /api or /media: hashed assets and React Router's server render. */
export async function registerWeb(app: FastifyInstance, opts: WebOptions) {
  if (opts.mode === 'production') {
    const buildDir = opts.buildDir
    const build = (await import(pathToFileURL(path.join(buildDir, 'server/index.js')).href)) as Build
    await app.register(fastifyStatic, {
      root: path.join(buildDir, 'client'),
      prefix: '/',
      wildcard: false,
      index: false,
      // scripts/precompress.ts writes .br and .gz next to each built asset; the one Accept-Encoding allows is sent.
      preCompressed: true,
      setHeaders(reply, filePath) {
        // Vite puts content hashes in every file name under assets/, so they never change.
        if (filePath.includes(`${path.sep}assets${path.sep}`))
          reply.header('Cache-Control', 'public, max-age=31536000, immutable')
        else reply.header('Cache-Control', 'public, max-age=3600')
      },
    })
    const getLoadContext = loadContextFor(build, opts.services)
    const listener = createRequestListener({
      build,
      mode: 'production',
      getLoadContext: (req) => getLoadContext(req.headers.get(NONCE_HEADER) ?? undefined),
    })
    const render = createRequestHandler(build, 'production')
    // A flood of distinct query strings evicts the least recently used pages instead of growing.
    const cache = new LRUCache<string, CachedPage>({ max: 500, ttl: 5_000 })
    // A published change shows at once: any write that invalidates public reads (here, or in another process
    // through LISTEN/NOTIFY) drops these few seconds of rendered pages, which cannot tell which reads they used.
    onInvalidation(
      () => cache.clear(),
      () => cache.clear(),
    )
    app.all('/*', async (request, reply) => {
      const key = request.method === 'GET' && isPublicPage(request.url) ? request.url : null
      if (!key) {
        const nonce = cspNonceOf(reply.raw)
        if (nonce) request.raw.headers[NONCE_HEADER] = nonce
        else delete request.raw.headers[NONCE_HEADER]
        reply.hijack()
        void listener(request.raw, reply.raw)
        return reply
      }
      let page = cache.get(key)
      if (!page) {
        const response = await render(
          new Request(new URL(request.url, 'http://localhost'), { headers: { 'user-agent': 'zixue-page-cache' } }),
          getLoadContext(NONCE_STAND_IN),
        )
        page = {
          status: response.status,
          headers: [...response.headers],
          body: splitAtNonce(Buffer.from(await response.arrayBuffer())),
        }
        if (page.status === 200) cache.set(key, page)
      }
      for (const [name, value] of page.headers) reply.header(name, value)
      return reply.code(page.status).send(withNonce(page.body, reply.raw))
    })
    return
  }

  const { createServer } = await import('vite')
  const vite = await createServer({ root: opts.root, server: { middlewareMode: true }, appType: 'custom' })
  app.addHook('onClose', () => vite.close())
  const listener = createRequestListener({
    build: () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<Build>,
    mode: 'development',
    getLoadContext: async () => {
      const build = (await vite.ssrLoadModule('virtual:react-router/server-build')) as Build
      // No CSP in development (Vite injects its own scripts), so no nonce.
      return loadContextFor(build, opts.services)()
    },
  })
  app.all('/*', (request, reply) => {
    reply.hijack()
    vite.middlewares(request.raw, reply.raw, () => void listener(request.raw, reply.raw))
  })
}
