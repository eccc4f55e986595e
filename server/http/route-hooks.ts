import type { FastifyInstance, RouteOptions } from 'fastify'

type RouteHookName = 'preHandler' | 'onSend' | 'onResponse'
type RouteHook<K extends RouteHookName> = Extract<NonNullable<RouteOptions[K]>, (...args: never[]) => unknown>

/**
 * Gives `hook` to each route registered from here on that `applies` to, as one of its own hooks: a concern that only
 * some routes have (idempotency keys, the staff audit) then costs the others nothing, where an app-wide hook runs on
 * every request to find out that it has nothing to do. Register before the routes. The hook goes before the route's
 * other hooks of its kind, where an app-wide one runs: an onSend hook still sees the answer as a string, before
 * @fastify/compress (which adds its onSend to each route) turns it into a stream.
 */
export function hookRoutes<K extends RouteHookName>(
  app: FastifyInstance,
  name: K,
  applies: (route: RouteOptions) => boolean,
  hook: RouteHook<K>,
) {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!applies(route)) return
    const existing = route[name] as RouteHook<K> | RouteHook<K>[] | undefined
    const hooks = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]
    ;(route as Record<K, unknown>)[name] = [hook, ...hooks]
  })
}
