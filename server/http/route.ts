import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyPluginOptions,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
} from 'fastify'
import type { z } from 'zod'
import { IdParams } from '#shared/api/params.ts'
import type { Permission } from '#shared/staff/roles.ts'
import { requireRole, type AuthMode, type RouteScope } from './auth.ts'
import { ok } from './envelope.ts'

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'
type Input = z.ZodType | undefined
type Out<S extends Input> = S extends z.ZodType ? z.output<S> : unknown
/** What a handler returns: the `data` of the route's envelope schema (nothing at all for an empty one). */
type Data<R extends z.ZodType> = z.input<R> extends { data: infer D } ? D : never
type Answer<R extends z.ZodType> = Data<R> extends Record<string, never> ? Data<R> | void : Data<R>
/** The member id a handler gets: the caller's where the route needs a sign-in, else the signed-in member or null. */
type MemberId<A extends AuthMode | undefined> = A extends 'required' | 'staff' | 'admin' ? number : number | null
type Effective<A extends AuthMode | undefined, D extends AuthMode | undefined> = A extends undefined ? D : A

/** What a route says about itself in the API docs and to the hooks (everything but its answer). */
interface RouteDocs<Q extends Input, B extends Input, P extends Input, A extends AuthMode | undefined> {
  summary: string
  description?: string
  /** Replaces the plugin's tags (a route listed with another module's reads in the API docs). */
  tags?: string[]
  /** Replaces the plugin's `token` (whether the docs show the `ZXB-Token` header). */
  token?: boolean
  /** Who may call (server/http/auth.ts); replaces the plugin's. The handler gets the member id. */
  auth?: A
  /** The staff permission the route needs (shared/staff/roles.ts); replaces the plugin's. */
  permission?: Permission
  /** How it serves staff whose grant reaches only their own records (server/http/auth.ts RouteScope). */
  scope?: RouteScope
  /**
   * Needs a fresh SMS confirmation (a step-up proof in `X-Step-Up`): refund approval, role changes; 'export': only
   * a list's CSV file (server/http/admin-list.ts).
   */
  stepUp?: true | 'export'
  /** A repeated `Idempotency-Key` gets the first answer again (server/modules/orders/idempotency.ts). */
  idempotent?: true
  /** A staff read of personal data (a signed contract, with its ID number) goes to the action log like a change. */
  auditRead?: true
  /** Request content types other than JSON (`multipart/form-data` for uploads). */
  consumes?: string[]
  bodyLimit?: number
  querystring?: Q
  body?: B
  params?: P
}

/** One API route: its docs, its request schemas and the envelope schema of its 200 answer. */
interface RouteSpec<
  R extends z.ZodType,
  Q extends Input,
  B extends Input,
  P extends Input,
  A extends AuthMode | undefined,
> extends RouteDocs<Q, B, P, A> {
  /** The answer's schema, `envelope(X)`: the handler returns X (or nothing for `emptyEnvelope`). */
  response: R
  /** The envelope's msg: fixed, or chosen from the data ('ok' when absent). */
  msg?: string | ((data: Data<R>) => string)
}

/** A route that answers in its own protocol (a file, a redirect, a provider's callback): every answer's schema. */
interface RawSpec<Q extends Input, B extends Input, P extends Input, A extends AuthMode | undefined> extends RouteDocs<
  Q,
  B,
  P,
  A
> {
  response: Record<number, z.ZodType>
}

type RouteRequest<Q extends Input, B extends Input, P extends Input> = FastifyRequest<{
  Querystring: Out<Q>
  Body: Out<B>
  Params: Out<P>
}>

type Declare<D extends AuthMode | undefined> = <
  R extends z.ZodType,
  Q extends Input = undefined,
  B extends Input = undefined,
  P extends Input = undefined,
  A extends AuthMode | undefined = undefined,
>(
  url: string,
  spec: RouteSpec<R, Q, B, P, A>,
  handler: (request: RouteRequest<Q, B, P>, memberId: MemberId<Effective<A, D>>) => Promise<Answer<R>>,
) => void

type DeclareRaw = <
  Q extends Input = undefined,
  B extends Input = undefined,
  P extends Input = undefined,
  A extends AuthMode | undefined = undefined,
>(
  url: string,
  spec: RawSpec<Q, B, P, A>,
  handler: (request: RouteRequest<Q, B, P>, reply: FastifyReply) => Promise<unknown>,
) => void

/**
 * The routes of a record operators keep, each optional: GET `url` lists them, GET `url/:id` shows one, POST `url`
 * adds one, PATCH `url/:id` changes one, DELETE `url/:id` removes one and POST `url/order` puts them in an order;
 * adding and changing answer the record (`response`), ordering answers the list as `list` does (its querystring
 * too). Each handler gets what it works on (the query, the id, the body) and then the member id, so a service
 * function taking the same stands as it is (`handler: admin.createTeacher`; an arrow function, not a method).
 */
interface RecordsSpec<
  D extends AuthMode | undefined,
  R extends z.ZodType,
  L extends z.ZodType,
  Q extends Input,
  S extends z.ZodType,
  C extends z.ZodType,
  E extends z.ZodType,
  X extends z.ZodType,
  O extends z.ZodType,
> {
  response: R
  list?: {
    summary: string
    querystring?: Q
    response: L
    handler: (query: Out<Q>, memberId: MemberId<D>) => Promise<Answer<L>>
    permission?: Permission
    scope?: RouteScope
  }
  detail?: {
    summary: string
    response: S
    handler: (id: number, memberId: MemberId<D>) => Promise<Answer<S>>
    permission?: Permission
    scope?: RouteScope
  }
  create?: {
    summary: string
    body: C
    handler: (body: z.output<C>, memberId: MemberId<D>) => Promise<Answer<R>>
    scope?: RouteScope
  }
  edit?: {
    summary: string
    scope?: RouteScope
    body: E
    handler: (id: number, body: z.output<E>, memberId: MemberId<D>) => Promise<Answer<R>>
  }
  remove?: { summary: string; response: X; handler: (id: number, memberId: MemberId<D>) => Promise<Answer<X>> }
  /** Needs `list`: the order is of the records it lists. */
  order?: {
    summary: string
    body: O
    handler: (body: z.output<O>, query: Out<Q>, memberId: MemberId<D>) => Promise<Answer<L>>
  }
}

/** What every route of a plugin shares. */
interface RouteDefaults<D extends AuthMode | undefined> {
  tags: string[]
  /** Whether the docs show the `ZXB-Token` header (default true; false for routes that never read it). */
  token?: boolean
  /** Who may call every route of the plugin (`staff`); a route's own `auth` replaces it. */
  auth?: D
  /** The permission reads (GET) and changes (other methods) need; a route's own `permission` replaces it. */
  access?: Access
}

/** A route group's permission: one for everything, or one for reads and one for changes. */
export type Access = Permission | { read: Permission; write: Permission }

/** The permissions several route groups share, named once so the groups cannot drift apart. */
export const GroupAccess = {
  /** The catalogue: categories, teachers, courses, chapters, videos. */
  catalogue: { read: 'catalogue.read', write: 'catalogue.edit' },
  /** What learners see around the catalogue: home feed, hot words, overlays, bundles, the service setting. */
  storefront: { read: 'catalogue.read', write: 'marketing.edit' },
  /** What is sold and discounted: VIP plans, coupons. */
  marketing: { read: 'marketing.read', write: 'marketing.edit' },
  /** Members' points: balances and the ledger. */
  points: { read: 'members.read', write: 'points.adjust' },
} as const satisfies Record<string, Access>

export type Routes<D extends AuthMode | undefined = undefined> = Record<Method, Declare<D>> & {
  /** Routes that answer in another protocol (raw replies, streams, providers' notifications, redirects). */
  raw: Record<Method, DeclareRaw>
  records: ReturnType<typeof recordRoutes<D>>
}

const methods: Method[] = ['get', 'post', 'put', 'patch', 'delete']
const security = [{ token: [] }]

/**
 * Declares the routes of a plugin from compact specs: the handler gets the request and the member id and returns
 * the data; the tags, the token security, the route config and the envelope are added here, so a route file
 * reads as its API.
 */
export function apiRoutes<D extends AuthMode | undefined = undefined>(
  app: FastifyInstance,
  defaults: RouteDefaults<D>,
): Routes<D> {
  // Typed loosely here: the handlers' own signatures carry the types from the zod schemas.
  const register = (
    method: Method,
    url: string,
    spec: RouteDocs<Input, Input, Input, AuthMode | undefined>,
    response: Record<number, z.ZodType>,
    handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ) => {
    const schema: FastifySchema = {
      tags: spec.tags ?? defaults.tags,
      ...((spec.token ?? defaults.token ?? true) && { security }),
      summary: spec.summary,
      ...(spec.description !== undefined && { description: spec.description }),
      ...(spec.consumes && { consumes: spec.consumes }),
      ...(spec.querystring && { querystring: spec.querystring }),
      ...(spec.body && { body: spec.body }),
      ...(spec.params && { params: spec.params }),
      response,
    }
    const auth = spec.auth ?? defaults.auth
    const access = defaults.access
    const permission =
      spec.permission ?? (typeof access === 'object' ? (method === 'get' ? access.read : access.write) : access)
    const config =
      auth || spec.idempotent || permission
        ? {
            ...(auth && { auth }),
            ...(permission && { permission }),
            ...(spec.stepUp && { stepUp: spec.stepUp }),
            ...(spec.scope && { scope: spec.scope }),
            ...(spec.idempotent && { idempotent: true }),
            ...(spec.auditRead && { auditRead: true }),
          }
        : undefined
    const limits = spec.bodyLimit === undefined ? {} : { bodyLimit: spec.bodyLimit }
    app[method](url, { ...(config && { config }), ...limits, schema }, handler)
  }
  const memberId = (request: FastifyRequest, auth: AuthMode | undefined) =>
    !auth || auth === 'none'
      ? (request.principal?.memberId ?? null)
      : requireRole(request, auth === 'required' ? 'member' : auth).memberId

  const each = <T>(f: (m: Method) => T) => Object.fromEntries(methods.map((m) => [m, f(m)])) as Record<Method, T>
  const declare =
    (method: Method): Declare<D> =>
    (url, spec, handler) => {
      const { msg } = spec
      const auth = spec.auth ?? defaults.auth
      register(method, url, spec, { 200: spec.response }, async (request) => {
        const answer = await handler(request as RouteRequest<never, never, never>, memberId(request, auth) as never)
        const data = answer === undefined ? {} : answer
        return ok(data, typeof msg === 'function' ? msg(data as never) : msg)
      })
    }
  const declareRaw =
    (method: Method): DeclareRaw =>
    (url, spec, handler) =>
      register(method, url, spec, spec.response, (request, reply) =>
        handler(request as RouteRequest<never, never, never>, reply),
      )
  const routes = each(declare)
  return { ...routes, raw: each(declareRaw), records: recordRoutes(routes) }
}

/** Declares a record's routes (RecordsSpec) with the plugin's declarers. */
function recordRoutes<D extends AuthMode | undefined>(r: Record<Method, Declare<D>>) {
  return <
    R extends z.ZodType,
    L extends z.ZodType = z.ZodType,
    Q extends Input = undefined,
    S extends z.ZodType = z.ZodType,
    C extends z.ZodType = z.ZodType,
    E extends z.ZodType = z.ZodType,
    X extends z.ZodType = z.ZodType,
    O extends z.ZodType = z.ZodType,
  >(
    url: string,
    { response, list, detail, create, edit, remove, order }: RecordsSpec<D, R, L, Q, S, C, E, X, O>,
  ) => {
    if (list) {
      const { handler, ...docs } = list
      r.get(url, docs, async (request, memberId) => handler(request.query as Out<Q>, memberId))
    }
    if (detail) {
      const { handler, ...docs } = detail
      r.get(`${url}/:id`, { ...docs, params: IdParams }, async (request, memberId) =>
        handler(request.params.id, memberId),
      )
    }
    if (create) {
      const { handler, ...docs } = create
      r.post(url, { ...docs, response }, async (request, memberId) => handler(request.body as z.output<C>, memberId))
    }
    if (edit) {
      const { handler, ...docs } = edit
      r.patch(`${url}/:id`, { ...docs, params: IdParams, response }, async (request, memberId) =>
        handler(request.params.id, request.body as z.output<E>, memberId),
      )
    }
    if (remove) {
      const { handler, ...docs } = remove
      r.delete(`${url}/:id`, { ...docs, params: IdParams }, async (request, memberId) =>
        handler(request.params.id, memberId),
      )
    }
    if (order) {
      if (!list) throw new Error(`${url}/order: ordering needs the list`)
      const { handler, ...docs } = order
      const { querystring, response: listResponse } = list
      r.post(`${url}/order`, { ...docs, querystring, response: listResponse }, async (request, memberId) =>
        handler(request.body as z.output<O>, request.query as Out<Q>, memberId),
      )
    }
  }
}

/**
 * A plugin of API routes: `declare` gets `r` (apiRoutes with these defaults), the plugin's options (typed where the
 * plugin is written: its module's service, the use cases, the settings it reads) and the Fastify instance.
 */
export function apiPlugin<O extends FastifyPluginOptions, D extends AuthMode | undefined = undefined>(
  defaults: RouteDefaults<D>,
  declare: (r: Routes<D>, opts: O, app: FastifyInstance) => void | Promise<void>,
): FastifyPluginAsync<O> {
  return async (app, opts) => declare(apiRoutes(app, defaults), opts, app)
}

/**
 * A plugin of the operator API under /api/admin/: listed under `admin`, for staff holding `access` (a route may
 * name its own `permission`); server/http/auth.ts checks it with `can` before the handler runs.
 */
export function adminPlugin<O extends FastifyPluginOptions>(
  access: Access,
  declare: (r: Routes<'staff'>, opts: O, app: FastifyInstance) => void | Promise<void>,
): FastifyPluginAsync<O> {
  return apiPlugin({ tags: ['admin'], auth: 'staff', access }, declare)
}
