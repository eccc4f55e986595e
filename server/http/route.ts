import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify'
import type { z } from 'zod'
import { ok } from './envelope.ts'

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'
type Input = z.ZodType | undefined
type Out<S extends Input> = S extends z.ZodType ? z.output<S> : unknown
/** What a handler returns: the `data` of the route's envelope schema. */
type Data<R extends z.ZodType> = z.input<R> extends { data: infer D } ? D : never

/** One API route: its OpenAPI text, its request schemas and the envelope schema of its 200 answer. */
interface RouteSpec<R extends z.ZodType, Q extends Input, B extends Input, P extends Input> {
  summary: string
  description?: string
  /** Replaces the plugin's tags (a route listed with another module's reads in the API docs). */
  tags?: string[]
  /** Replaces the plugin's `token` (whether the docs show the `ZXB-Token` header). */
  token?: boolean
  /** `auth` (see server/http/auth.ts), `idempotent`, … */
  config?: FastifyContextConfig
  querystring?: Q
  body?: B
  params?: P
  /** The answer's schema, `envelope(X)`: the handler returns X. */
  response: R
  /** The envelope's msg: fixed, or chosen from the data ('ok' when absent). */
  msg?: string | ((data: Data<R>) => string)
}

type RouteRequest<Q extends Input, B extends Input, P extends Input> = FastifyRequest<{
  Querystring: Out<Q>
  Body: Out<B>
  Params: Out<P>
}>

type Declare = <
  R extends z.ZodType,
  Q extends Input = undefined,
  B extends Input = undefined,
  P extends Input = undefined,
>(
  url: string,
  spec: RouteSpec<R, Q, B, P>,
  handler: (request: RouteRequest<Q, B, P>, reply: FastifyReply) => Promise<Data<R>>,
) => void

/** What every route of a plugin shares in the API docs. */
interface RouteDefaults {
  tags: string[]
  /** Whether the docs show the `ZXB-Token` header (default true; false for routes that never read it). */
  token?: boolean
  /** Route config every route of the plugin shares (`{ auth: 'admin' }`); a route's own config adds to it. */
  config?: FastifyContextConfig
}

/**
 * Declares the ordinary routes of a plugin from compact specs: the handler returns the data and the envelope is
 * added here, so a route file reads as its API. Routes that answer in another protocol (raw replies, streams,
 * providers' notifications) are declared with Fastify directly.
 */
export function apiRoutes(app: FastifyInstance, defaults: RouteDefaults): Record<Method, Declare> {
  const security = [{ token: [] }]
  const declare =
    (method: Method): Declare =>
    (url, spec, handler) => {
      // Typed loosely here: the handler's own signature carries the types from the zod schemas.
      const schema: FastifySchema = {
        tags: spec.tags ?? defaults.tags,
        ...((spec.token ?? defaults.token ?? true) && { security }),
        summary: spec.summary,
        ...(spec.description !== undefined && { description: spec.description }),
        ...(spec.querystring && { querystring: spec.querystring }),
        ...(spec.body && { body: spec.body }),
        ...(spec.params && { params: spec.params }),
        response: { 200: spec.response },
      }
      const { msg } = spec
      const config = defaults.config || spec.config ? { ...defaults.config, ...spec.config } : undefined
      app[method](url, { ...(config && { config }), schema }, async (request, reply) => {
        const data = await handler(request as RouteRequest<never, never, never>, reply)
        return ok(data, typeof msg === 'function' ? msg(data) : msg)
      })
    }
  return {
    get: declare('get'),
    post: declare('post'),
    put: declare('put'),
    patch: declare('patch'),
    delete: declare('delete'),
  }
}
