import { useContext } from 'react'
import { preload } from 'react-dom'
import { UNSAFE_DataRouterStateContext as RouterState, UNSAFE_FrameworkContext as FrameworkContext } from 'react-router'

/**
 * The page's stylesheets as `<link rel="preload" as="style">` at the top of the server-rendered head, before the
 * module preloads (issue 11 §4, docs/decisions/2026-11-27-stylesheets-first.md).
 *
 * React 19 hoists the `<link rel="modulepreload">` tags of `<Scripts>` into the head ahead of the head's own
 * children, so `<Links>`' stylesheets came after nine script preloads: over HTTP/1.1's six connections a phone
 * asked for the first paint's CSS after the scripts, and Lighthouse's simulation queued it behind the 100 KB
 * first-load chunk. React writes `preload()` hints before the hoisted tags, so the stylesheets go out first; the
 * `<link rel="stylesheet">` tags of `<Links>` then use the preloaded responses. Server render only: in the browser
 * React Router loads a new page's stylesheets itself.
 */
export function useStylePreloads(): void {
  const framework = useContext(FrameworkContext)
  // The router's own matches: useMatches() would build a UI match (with its loader data) for each, on every render.
  const state = useContext(RouterState)
  if (typeof document !== 'undefined' || !framework || !state) return
  for (const href of stylesheetHrefs(framework.manifest, state.matches)) preload(href, { as: 'style' })
}

type Manifest = NonNullable<React.ContextType<typeof FrameworkContext>>['manifest']

/** Per build's manifest, the stylesheets of each set of matched routes (a handful of sets per page kind). */
const hrefsByManifest = new WeakMap<Manifest, Map<string, string[]>>()

/** The stylesheets of the matched routes, in `<Links>`' order (root first), each once. */
function stylesheetHrefs(manifest: Manifest, matches: readonly { route: { id: string } }[]): string[] {
  let known = hrefsByManifest.get(manifest)
  if (!known) hrefsByManifest.set(manifest, (known = new Map<string, string[]>()))
  const key = matches.map((m) => m.route.id).join('\n')
  let hrefs = known.get(key)
  if (!hrefs) {
    hrefs = [...new Set(matches.flatMap((m) => manifest.routes[m.route.id]?.css ?? []))]
    // Route ids come from the build's own table, so the sets are few; the bound only guards against surprises.
    if (known.size < 1_000) known.set(key, hrefs)
  }
  return hrefs
}
