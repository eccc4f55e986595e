import type { FastifyInstance, RouteOptions } from 'fastify'

type RouteHookName = 'preHandler' | 'onSend' | 'onResponse'
type RouteHook<K extends RouteHookName> = Extract<NonNullable<RouteOptions[K]>, (...args: never[]) => unknown>

/** The hooks hookRoutes placed, to keep them in the order they were given. */
const placed = new WeakSet<object>()

/**
 * Gives `hook` to each route registered from here on that `applies` to, as one of its own hooks: a concern that only
 * some routes have (idempotency keys, the staff audit) then costs the others nothing, where an app-wide hook runs on
 * every request to find out that it has nothing to do. Register before the routes. A route runs the app-wide hooks
 * of a kind first, then its own: these come first among its own, in the order hookRoutes was called, so an onSend
 * hook still sees the answer as a string, before @fastify/compress (which adds its onSend to each route) turns it
 * into a stream.
 */
export function hookRoutes<K extends RouteHookName>(
  app: FastifyInstance,
  name: K,
  applies: (route: RouteOptions) => boolean,
  hook: RouteHook<K>,
) {
  placed.add(hook)
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!applies(route)) return
    const existing = route[name] as RouteHook<K> | RouteHook<K>[] | undefined
    const hooks = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]
    const at = hooks.findLastIndex((h) => placed.has(h)) + 1
    ;(route as Record<K, unknown>)[name] = [...hooks.slice(0, at), hook, ...hooks.slice(at)]
  })
}
