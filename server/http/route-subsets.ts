import { LRUCache } from 'lru-cache'
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router'

/**
 * The route table cut to what a document request can reach (issue 11 §3; docs/decisions/2026-11-26-route-subsets.md).
 *
 * React Router walks every ranked branch of the table to match a URL (the index route `/` comes last), three to four
 * times per document request, and its ServerRouter turns the whole manifest into route objects on each render: with
 * 112 routes that was about half of the gap between a page and the bare React Router floor. So a document request is
 * rendered with the build's routes cut to those React Router would match for its path and for each of the path's
 * parents (the partial manifest sent to the browser names those too), and the root, whose boundary answers a 404: the
 * same matches, in the same rank order, so the same HTML — `route-subsets.test.ts` compares every URL of the route
 * table with the full build's answer byte for byte.
 *
 * Matching only compares a path's segments with the table's static segments (case folded), or takes them as
 * parameters, so paths that agree on which segments are static words have the same matches: the cut is found once
 * per such shape (`/course/1001.html` and `/course/7` are both `/course/~`) with React Router's own `matchRoutes`.
 *
 * Only GET/HEAD document requests are cut. `.data` requests, `/__manifest` (route discovery must see every route),
 * other methods, URLs that cannot be decoded and builds that send the whole manifest to the browser (route discovery
 * not `lazy`) keep the whole table.
 */

type Routes = ServerBuild['routes']

export interface RouteSubsets {
  /** The build to render this request with: a cut one for GET/HEAD documents, otherwise the whole build. */
  pick(method: string, url: string): ServerBuild
  /** `make` once per build `pick` can return (e.g. a request handler each), chosen per request the same way. */
  each<T>(make: (build: ServerBuild) => T): (method: string, url: string) => T
}

/** The flat table as the nested route objects `matchRoutes` takes, in the order React Router's server builds them. */
function routeTree(routes: Routes, parentId?: string): RouteObject[] {
  return Object.values(routes)
    .filter((route) => route && route.parentId === parentId)
    .map((route) =>
      route!.index
        ? { id: route!.id, path: route!.path, index: true, caseSensitive: route!.caseSensitive }
        : {
            id: route!.id,
            path: route!.path,
            caseSensitive: route!.caseSensitive,
            children: routeTree(routes, route!.id),
          },
    )
}

function cut(build: ServerBuild, keep: Set<string>): ServerBuild {
  const routes: Routes = {}
  const manifest: ServerBuild['assets']['routes'] = {}
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route || !keep.has(id)) continue
    routes[id] = route
    const entry = build.assets.routes[id]
    if (entry) manifest[id] = entry
  }
  return { ...build, routes, assets: { ...build.assets, routes: manifest } }
}

/** Every static segment of the table's paths, lower-cased (`course`, `ks`, `systemcourse`…). */
function staticWords(routes: Routes): Set<string> {
  const words = new Set<string>()
  for (const route of Object.values(routes))
    for (const segment of (route?.path ?? '').split('/'))
      if (segment && !segment.startsWith(':') && !segment.includes('*')) words.add(segment.replace(/\?$/, ''))
  return new Set([...words].map((w) => w.toLowerCase()))
}

/**
 * Shapes kept. A flood of made-up paths costs at most a few `matchRoutes` calls per new shape (no more than the
 * deepest route's segments plus one, see `depth`), less than rendering its 404; the cuts themselves are shared by
 * every shape that keeps the same routes, so their request handlers outlive the shapes.
 */
const SHAPES = 1_000

/** Segments of the deepest route path without a splat: a longer path can only match a splat. */
function depth(routes: Routes): number {
  const segments = (id: string | undefined): string[] => {
    const route = id ? routes[id] : undefined
    if (!route) return []
    return [...segments(route.parentId), ...(route.path ?? '').split('/').filter(Boolean)]
  }
  let deepest = 0
  for (const id of Object.keys(routes)) {
    const path = segments(id)
    if (!path.some((s) => s.includes('*'))) deepest = Math.max(deepest, path.length)
  }
  return deepest
}

export function routeSubsets(build: ServerBuild): RouteSubsets {
  const tree = routeTree(build.routes)
  const roots = Object.values(build.routes).filter((r) => r && !r.parentId)
  const words = staticWords(build.routes)
  // React Router folds case with a RegExp's `i` flag, which equals lower-casing for ASCII only; and a route that is
  // case-sensitive would need the shapes to keep case. Neither exists today; either one means no cutting.
  // A parameter with text after it in its segment (`:id.html`), or a static word React Router would parse or decode
  // (`%`, `?`, `#`), would not match the stand-in the way the real segment does. None exists today.
  const foldable =
    [...words].every((w) => /^[\x20-\x7e]*$/.test(w) && !/[%?#]/.test(w)) &&
    Object.values(build.routes).every(
      (r) => !r?.caseSensitive && !(r?.path ?? '').split('/').some((s) => /^:[\w-]+\??[^\w/?-]/.test(s)),
    )
  // A parameter's stand-in: a segment no static word equals.
  let param = '~'
  while (words.has(param)) param += '~'
  const lazy =
    build.routeDiscovery?.mode === 'lazy' &&
    build.ssr &&
    (build.basename ?? '/') === '/' &&
    foldable &&
    roots.length > 0
  const longest = depth(build.routes)
  const cuts = new LRUCache<string, ServerBuild>({ max: SHAPES })
  // The cut of each distinct set of routes, shared by every shape that keeps that set (there are few).
  const bySet = new Map<string, ServerBuild>()

  /** The routes matched for the path and each of its parent paths, with the roots. */
  function reachable(segments: string[]): Set<string> {
    const keep = new Set(roots.map((r) => r!.id))
    for (let n = segments.length; n >= 0; n--)
      for (const match of matchRoutes(tree, `/${segments.slice(0, n).join('/')}`) ?? []) keep.add(match.route.id!)
    return keep
  }

  function pick(method: string, url: string): ServerBuild {
    if (!lazy || (method !== 'GET' && method !== 'HEAD')) return build
    const { pathname } = new URL(`http://localhost${url}`)
    if (pathname.endsWith('.data') || pathname === build.routeDiscovery.manifestPath) return build
    // An empty segment (`//` before another segment) is matched differently from none at all: such paths keep the
    // whole table. Trailing slashes are matched as one.
    if (/\/\/(?!\/*$)/.test(pathname)) return build
    const raws = pathname.split('/').filter(Boolean)
    if (raws.length > longest) return build
    const shape: string[] = []
    for (const raw of raws) {
      let segment: string
      try {
        segment = decodeURIComponent(raw)
      } catch {
        return build
      }
      // React Router keeps an encoded slash inside its segment.
      if (segment.includes('/')) return build
      const folded = /^[\x20-\x7e]*$/.test(segment) ? segment.toLowerCase() : null
      shape.push(folded !== null && words.has(folded) ? folded : param)
    }
    const key = shape.join('/')
    let chosen = cuts.get(key)
    if (!chosen) {
      const keep = reachable(shape)
      const set = [...keep].sort().join('\n')
      chosen = bySet.get(set)
      if (!chosen) bySet.set(set, (chosen = cut(build, keep)))
      cuts.set(key, chosen)
    }
    return chosen
  }

  return {
    pick,
    each<T>(make: (build: ServerBuild) => T) {
      // Keyed by the cut itself: one the cache let go is dropped here with it.
      const made = new WeakMap<ServerBuild, T>()
      return (method: string, url: string) => {
        const chosen = pick(method, url)
        let value = made.get(chosen)
        if (value === undefined) made.set(chosen, (value = make(chosen)))
        return value
      }
    },
  }
}
