import crypto from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import path from 'node:path'
import type { TLSSocket } from 'node:tls'
import { pathToFileURL } from 'node:url'
import fastifyStatic from '@fastify/static'
import { createRequestListener } from '@react-router/node'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { LRUCache } from 'lru-cache'
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router'
import type { PageServices } from '#server/page-services.ts'
import type { ResolveToken } from './auth.ts'
import { sendPageResponse } from './page-stream.ts'
import { changesPublicReads, onInvalidation } from './public-cache.ts'
import { routeSubsets } from './route-subsets.ts'
import { cspNonceOf } from './security-headers.ts'
import { ANONYMOUS_VIEWER, pageViewer, type PageViewer } from './session-cookie.ts'

type ContextKey<T> = Parameters<RouterContextProvider['set']>[0] & { defaultValue?: T }
type Build = ServerBuild & {
  entry: {
    module: {
      servicesContext?: ContextKey<PageServices>
      cspNonceContext?: ContextKey<string | undefined>
      viewerContext?: ContextKey<PageViewer>
    }
  }
}

export interface WebOptions {
  /** `production` serves build/; `development` runs Vite in middleware mode with hot reload. */
  mode: 'production' | 'development'
  root: string
  /** The production build (config.buildDir). */
  buildDir: string
  /** What loaders may call (no database handle, no secrets). */
  services: PageServices
  /** Who a session token stands for: the member pages' loaders ask for the session cookie's (session-cookie.ts). */
  resolveToken: ResolveToken
}

function loadContextFor(build: Build, services: PageServices) {
  const { servicesContext: key, cspNonceContext: nonceKey, viewerContext: viewerKey } = build.entry.module
  if (!key || !nonceKey || !viewerKey)
    throw new Error('app/entry.server.tsx must export servicesContext, cspNonceContext and viewerContext')
  /** `nonce`: the CSP nonce the page's inline scripts carry (security-headers.ts); `viewer`: who the page is for. */
  return (nonce?: string, viewer: PageViewer = ANONYMOUS_VIEWER) => {
    const context = new RouterContextProvider()
    context.set(key, services)
    context.set(viewerKey, viewer)
    if (nonce) context.set(nonceKey, nonce)
    return context
  }
}

/**
 * How a page request's viewer (session-cookie.ts) reaches its loaders through React Router's listener, which sees
 * only a fetch Request: an id in a request header (any value a client sent is overwritten), taken back once.
 */
const VIEWER_HEADER = 'x-zx-page-viewer'

function viewerHandOff(resolve: ResolveToken) {
  const pending = new Map<string, PageViewer>()
  return {
    /** Page GETs (documents and `.data` loads) may render the session cookie's member; anything else is anonymous. */
    put(request: FastifyRequest, reply: FastifyReply) {
      delete request.raw.headers[VIEWER_HEADER]
      if (request.method !== 'GET' && request.method !== 'HEAD') return
      const viewer = pageViewer(request, reply, resolve)
      if (viewer === ANONYMOUS_VIEWER) return
      const id = crypto.randomUUID()
      pending.set(id, viewer)
      request.raw.headers[VIEWER_HEADER] = id
      reply.raw.once('close', () => pending.delete(id))
    },
    take(req: Request): PageViewer {
      const id = req.headers.get(VIEWER_HEADER)
      const viewer = id ? pending.get(id) : undefined
      if (id) pending.delete(id)
      return viewer ?? ANONYMOUS_VIEWER
    },
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

/** Node's request as a fetch Request for React Router (its listener does the same), aborted if the client leaves. */
function fetchRequestOf(req: IncomingMessage, res: ServerResponse) {
  const controller = new AbortController()
  res.once('close', () => {
    if (!res.writableFinished) controller.abort()
  })
  const headers = new Headers()
  // Over HTTP/2 (TLS_CERT_FILE) the request also carries pseudo-headers (`:method`, `:authority`…), which are not
  // header names a Request accepts; the host is then `:authority`.
  for (const [name, value] of Object.entries(req.headers))
    if (!name.startsWith(':'))
      for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v)
  const protocol = (req.socket as TLSSocket).encrypted ? 'https' : 'http'
  const host = req.headers[':authority'] ?? req.headers.host ?? 'localhost'
  // The request target appended to the origin, as React Router's listener does: `new URL('//evil.example/x', base)`
  // would read a path starting with `//` as another host.
  const url = new URL(`${protocol}://${String(host)}${req.url ?? '/'}`)
  return new Request(url, { method: req.method, headers, signal: controller.signal })
}

/**
 * Public pages render the same for everyone (the login token lives in localStorage, spec 4, and these pages never
 * read the session cookie of member pages), so their HTML is kept for a few seconds, like the catalogue data under
 * them: the server renders each at most once per interval.
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
    const viewers = viewerHandOff(opts.resolveToken)
    // Document requests render with the route table cut to what their URL can reach (route-subsets.ts).
    const subsets = routeSubsets(build)
    const listenerFor = subsets.each((cut) =>
      createRequestListener({
        build: cut,
        mode: 'production',
        getLoadContext: (req) => getLoadContext(req.headers.get(NONCE_HEADER) ?? undefined, viewers.take(req)),
      }),
    )
    const renderFor = subsets.each((cut) => createRequestHandler(cut, 'production'))
    /** A page rendered for this request alone, as the listener does it, but sent compressed (page-stream.ts). */
    const renderStreamed = async (req: IncomingMessage, res: ServerResponse) => {
      const request = fetchRequestOf(req, res)
      const context = getLoadContext(request.headers.get(NONCE_HEADER) ?? undefined, viewers.take(request))
      // The route cut is chosen by the path React Router will render, which an odd Host header could change.
      const { pathname, search } = new URL(request.url)
      await sendPageResponse(req, res, await renderFor(req.method ?? 'GET', pathname + search)(request, context))
    }
    // A flood of distinct query strings evicts the least recently used pages instead of growing.
    const cache = new LRUCache<string, CachedPage>({ max: 500, ttl: 5_000 })
    // A published change shows at once: any write that invalidates public reads (here, or in another process
    // through LISTEN/NOTIFY) drops these few seconds of rendered pages, which cannot tell which reads they used.
    // Sign-ins and sign-outs do not: these pages are rendered for nobody.
    onInvalidation(
      (tags) => changesPublicReads(tags) && cache.clear(),
      () => cache.clear(),
    )
    app.all('/*', async (request, reply) => {
      const key = request.method === 'GET' && isPublicPage(request.url) ? request.url : null
      if (!key) {
        const nonce = cspNonceOf(reply.raw)
        if (nonce) request.raw.headers[NONCE_HEADER] = nonce
        else delete request.raw.headers[NONCE_HEADER]
        viewers.put(request, reply)
        reply.hijack()
        // Reads go out compressed (page-stream.ts); a form's POST keeps React Router's own listener for its body.
        if (request.method === 'GET' || request.method === 'HEAD')
          void renderStreamed(request.raw, reply.raw).catch((err: unknown) => {
            // After the head, mostly a client that left (React Router's handleError reports render errors itself).
            if (reply.raw.headersSent) return void reply.raw.destroy()
            request.log.error({ err }, 'page render failed')
            reply.raw.writeHead(500).end()
          })
        else void listenerFor(request.method, request.url)(request.raw, reply.raw)
        return reply
      }
      let page = cache.get(key)
      if (!page) {
        const response = await renderFor('GET', request.url)(
          new Request(new URL(request.url, 'http://localhost'), { headers: { 'user-agent': 'zixue-page-cache' } }),
          getLoadContext(NONCE_STAND_IN),
        )
        page = {
          status: response.status,
          headers: [...response.headers],
          body: splitAtNonce(Buffer.from(await response.arrayBuffer())),
        }
        // Rendered with the anonymous viewer (no cookie reaches this render); a private answer is never kept anyway.
        if (page.status === 200 && !/private|no-store/i.test(response.headers.get('cache-control') ?? ''))
          cache.set(key, page)
      }
      for (const [name, value] of page.headers) reply.header(name, value)
      return reply.code(page.status).send(withNonce(page.body, reply.raw))
    })
    return
  }

  const { createServer } = await import('vite')
  const vite = await createServer({ root: opts.root, server: { middlewareMode: true }, appType: 'custom' })
  app.addHook('onClose', () => vite.close())
  const viewers = viewerHandOff(opts.resolveToken)
  const listener = createRequestListener({
    build: () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<Build>,
    mode: 'development',
    getLoadContext: async (req) => {
      const build = (await vite.ssrLoadModule('virtual:react-router/server-build')) as Build
      // No CSP in development (Vite injects its own scripts), so no nonce.
      return loadContextFor(build, opts.services)(undefined, viewers.take(req))
    },
  })
  app.all('/*', (request, reply) => {
    viewers.put(request, reply)
    reply.hijack()
    vite.middlewares(request.raw, reply.raw, () => void listener(request.raw, reply.raw))
  })
}
