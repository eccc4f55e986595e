import type { ServerBuild } from 'react-router'

/**
 * The route table cut to what a document request can reach (issue 11 §3; docs/decisions/2026-11-26-route-subsets.md).
 *
 * React Router walks every ranked branch of the table to match a URL (the index route `/` comes last), three to four
 * times per document request, and its ServerRouter turns the whole manifest into route objects on each render: with
 * 112 routes that was about half of the gap between a page and the bare React Router floor. A URL can only match
 * routes whose path begins with its first segment, so a document request is rendered with the build's routes cut to
 * those (plus the root, the pathless layouts, the index route and any route whose first segment is a parameter): the
 * same matches, in the same rank order, so the same HTML — `route-subsets.test.ts` compares every URL of the
 * route table with the full build's answer byte for byte.
 *
 * Only GET/HEAD document requests are cut. `.data` requests, `/__manifest` (route discovery must see every route),
 * other methods, URLs that cannot be decoded and builds that send the whole manifest to the browser (route discovery
 * not `lazy`) keep the whole table.
 */

type Routes = ServerBuild['routes']

/** `''` for paths every request needs (root, layouts, index), null for a parameter or splat first segment. */
function firstSegment(path: string): string | null {
  const first = path.replace(/^\/+/, '').split('/')[0] ?? ''
  if (first.startsWith(':') || first.includes('*') || first.endsWith('?')) return null
  return first.toLowerCase()
}

function fullPath(routes: Routes, id: string): string {
  const route = routes[id]
  if (!route) return ''
  const parent = route.parentId ? fullPath(routes, route.parentId) : ''
  return route.path ? `${parent}/${route.path}` : parent
}

function cut(build: ServerBuild, keep: (id: string) => boolean): ServerBuild {
  const routes: Routes = {}
  const manifest: ServerBuild['assets']['routes'] = {}
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route || !keep(id)) continue
    routes[id] = route
    const entry = build.assets.routes[id]
    if (entry) manifest[id] = entry
  }
  return { ...build, routes, assets: { ...build.assets, routes: manifest } }
}

export interface RouteSubsets {
  /** The build to render this request with: a cut one for GET/HEAD documents, otherwise the whole build. */
  pick(method: string, url: string): ServerBuild
  /** `make` once per build `pick` can return (e.g. a request handler each), chosen per request the same way. */
  each<T>(make: (build: ServerBuild) => T): (method: string, url: string) => T
}

export function routeSubsets(build: ServerBuild): RouteSubsets {
  const keyOf = new Map<string, string | null>()
  for (const id of Object.keys(build.routes)) keyOf.set(id, firstSegment(fullPath(build.routes, id)))
  const always = (id: string) => keyOf.get(id) === '' || keyOf.get(id) === null
  const keys = new Set([...keyOf.values()].filter((k): k is string => !!k))
  // One cut per first segment of the table; any other first segment can only reach the routes every cut has.
  const cuts = new Map<string, ServerBuild>()
  for (const key of keys)
    cuts.set(
      key,
      cut(build, (id) => always(id) || keyOf.get(id) === key),
    )
  const rest = cut(build, always)
  const lazy = build.routeDiscovery?.mode === 'lazy' && build.ssr && (build.basename ?? '/') === '/'

  function pick(method: string, url: string): ServerBuild {
    if (!lazy || (method !== 'GET' && method !== 'HEAD')) return build
    // Parsed as the request handlers parse it (web.ts `fetchRequestOf`, @react-router/node): the request target is
    // appended to the origin, so `//x/y` stays a path (and reaches the whole table's 404 like any unknown path).
    const { pathname } = new URL(`http://localhost${url}`)
    if (pathname.endsWith('.data')) return build
    if (pathname === build.routeDiscovery.manifestPath) return build
    let first: string
    try {
      first = decodeURIComponent(pathname.slice(1).split('/', 1)[0] ?? '').toLowerCase()
    } catch {
      return build
    }
    if (first.includes('/')) return build
    return cuts.get(first) ?? rest
  }

  return {
    pick,
    each<T>(make: (build: ServerBuild) => T) {
      const made = new Map<ServerBuild, T>()
      return (method: string, url: string) => {
        const chosen = pick(method, url)
        let value = made.get(chosen)
        if (value === undefined) made.set(chosen, (value = make(chosen)))
        return value
      }
    },
  }
}
