import { lazy, Suspense, useEffect, useState } from 'react'
import { useLocation, useParams } from 'react-router'
import { api } from '#app/lib/api.ts'
import { documentCookies } from '#app/lib/browser-storage.ts'
import { overlaySeenCookie, showsOverlays } from '#app/lib/route-rules.ts'
import type { Overlay as SystemOverlay } from '#server/modules/overlays/overlays.schema.ts'
import type { OverlayCaps } from '#shared/overlay-caps.ts'

/** The picking, the caps and the drawing: loaded only when a page has notices (issue 11 §4). */
const OverlaySession = lazy(() => import('./overlay-session.tsx'))

/** A page view's notices, as fetched. */
interface Found {
  path: string
  list: SystemOverlay[]
  caps?: OverlayCaps
  /** Tells page views of the same path apart (leaving and coming back is a new page view). */
  view: number
}

let views = 0

/**
 * System notices (spec 4 and 9, issue 10 §4): on entering an allowed page the list is fetched with the caps
 * operators set, at once (a notice belongs to the page view it was fetched on); what picks and draws a notice
 * (overlay-session.tsx) loads only when the list has a notice this browser has not seen.
 */
export function OverlayHost() {
  const location = useLocation()
  const params = useParams()
  const allowed = showsOverlays(location.pathname, location.search, params)
  const [found, setFound] = useState<Found | null>(null)

  useEffect(() => {
    if (!allowed) return
    const controller = new AbortController()
    api
      .get<{ list?: SystemOverlay[]; caps?: OverlayCaps }>('/systemOverlay', undefined, { signal: controller.signal })
      .then((data) => {
        const unseen = (data.list ?? []).filter((o) => documentCookies.get(overlaySeenCookie(o.so_id)) === undefined)
        if (unseen.length) setFound({ path: location.pathname, list: unseen, caps: data.caps, view: ++views })
      })
      .catch(() => {
        // The wrapper already showed the server's message (spec 8); the page itself is unaffected.
      })
    return () => controller.abort()
    // One page view: entering another page looks again; the caps keep it from stacking.
  }, [allowed, location.pathname])

  // A notice belongs to the page view it was picked on.
  if (!found || found.path !== location.pathname) return null
  return (
    <Suspense fallback={null}>
      <OverlaySession key={found.view} list={found.list} caps={found.caps} />
    </Suspense>
  )
}
