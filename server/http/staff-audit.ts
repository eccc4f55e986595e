import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { hookRoutes } from './route-hooks.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The envelope code of the answer, read as it is sent (staff changes only). */
    auditCode: number | null
  }
  interface FastifyInstance {
    /** Every audited route as `METHOD /route` (the action log names each: server/modules/audit/action-names.ts). */
    auditedRoutes: readonly string[]
  }
}

/** One staff change as the audit module records it (server/modules/audit, passed in by the composition root). */
export interface StaffActionRecord {
  memberId: number
  method: string
  route: string
  url: string
  params: Record<string, unknown> | null
  body: unknown
  status: number
  code: number | null
  requestId: string
  createdAt: Date
}

// SMS codes too (a staff member's step-up code, POST /api/admin/step-up): spent, but still not for the log.
const SECRET = /pass|secret|token|private|api_?key|cert|^(phone_)?code$/i
const MAX_BODY_CHARS = 4000

/** A route that needs staff or admin. */
const staffRoute = (route: RouteOptions) => route.config?.auth === 'staff' || route.config?.auth === 'admin'

/** A staff change (any method but GET/HEAD on a route that needs staff or admin), or a read marked `auditRead`. */
function auditedCall(config: RouteOptions['config'], method: string) {
  const change = method !== 'GET' && method !== 'HEAD'
  return (config?.auth === 'staff' || config?.auth === 'admin') && (change || config.auditRead === true)
}

const audited = (request: FastifyRequest) => auditedCall(request.routeOptions.config, request.method)

/** The body as sent, without secrets; a large one (an import) is kept as its keys. */
export function auditBody(body: unknown): unknown {
  if (body === undefined || body === null) return null
  const clean = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(clean)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, SECRET.test(k) ? '[removed]' : clean(x)]))
        : v
  const cleaned = clean(body)
  const text = JSON.stringify(cleaned)
  if (text.length <= MAX_BODY_CHARS) return cleaned
  return {
    truncated: true,
    keys: cleaned && typeof cleaned === 'object' && !Array.isArray(cleaned) ? Object.keys(cleaned) : [],
  }
}

/**
 * Records every change an operator makes through the staff API, with who and when (issue 4: every money action
 * by an operator is recorded), after the answer is sent so it never slows the action down. Refused attempts (a
 * member calling an admin route) are recorded too.
 */
export const staffAuditPlugin = fp(
  async (app: FastifyInstance, opts: { record: (action: StaffActionRecord) => Promise<void>; now: () => Date }) => {
    app.decorateRequest('auditCode', null)
    const routes: string[] = []
    app.decorate('auditedRoutes', routes)
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (auditedCall(route.config, method)) routes.push(`${method} ${route.url}`)
      }
    })

    // Only the staff routes carry these hooks (hookRoutes): a member's request never runs them.
    hookRoutes(app, 'onSend', staffRoute, async (request, _reply, payload) => {
      if (audited(request) && typeof payload === 'string') {
        const m = /"code":(\d+)/.exec(payload.slice(0, 200))
        request.auditCode = m ? Number(m[1]) : null
      }
      return payload
    })

    hookRoutes(app, 'onResponse', staffRoute, async (request, reply) => {
      if (!audited(request) || !request.principal) return
      try {
        await opts.record({
          memberId: request.principal.memberId,
          method: request.method,
          route: request.routeOptions.url ?? request.url,
          url: request.url.slice(0, 1000),
          params: (request.params as Record<string, unknown> | undefined) ?? null,
          body: auditBody(request.body),
          status: reply.statusCode,
          code: request.auditCode,
          requestId: request.id,
          createdAt: opts.now(),
        })
      } catch (err) {
        request.log.error({ err }, 'staff action not recorded')
      }
    })
  },
)
