import { lazy, Suspense, useEffect, useState } from 'react'
import { useLocation, useNavigate, useParams } from 'react-router'
import { api } from '#app/lib/api.ts'
import { documentCookies } from '#app/lib/browser-storage.ts'
import { OVERLAY_SEEN_DAYS, overlayJumpHref, overlaySeenCookie, showsOverlays } from '#app/lib/route-rules.ts'
import type { Overlay as SystemOverlay } from '#server/modules/overlays/overlays.schema.ts'

const OverlayView = lazy(() => import('./overlay-view.tsx'))

function seen(overlay: SystemOverlay): boolean {
  return documentCookies.get(overlaySeenCookie(overlay.so_id)) !== undefined
}

function markSeen(overlay: SystemOverlay): void {
  documentCookies.set(overlaySeenCookie(overlay.so_id), '1', OVERLAY_SEEN_DAYS * 24 * 3600)
}

/**
 * System notices (spec 4 and 9): on entering an allowed page the list is fetched; notices not seen in the last
 * 30 days show one after another, and closing one shows the next. A notice counts as seen once shown, so a
 * reload never repeats it. The drawing code loads only when there is something to show.
 */
export function OverlayHost() {
  const location = useLocation()
  const params = useParams()
  const navigate = useNavigate()
  const allowed = showsOverlays(location.pathname, location.search, params)
  const [queue, setQueue] = useState<SystemOverlay[]>([])
  const showing = queue.length > 0

  useEffect(() => {
    if (!allowed || showing) return
    const controller = new AbortController()
    api
      .get<{ list?: SystemOverlay[] }>('/systemOverlay', undefined, { signal: controller.signal })
      .then((data) => {
        const fresh = (data.list ?? []).filter((o) => !seen(o))
        if (fresh.length > 0) setQueue(fresh)
      })
      .catch(() => {
        // The wrapper already showed the server's message (spec 8); the page itself is unaffected.
      })
    return () => controller.abort()
    // Entering another allowed page fetches again; the seen cookies keep repeats away.
  }, [allowed, showing, location.pathname])

  const current = queue[0]
  useEffect(() => {
    if (current) markSeen(current)
  }, [current])

  if (!current) return null

  const next = () => setQueue((q) => q.slice(1))
  const open = () => {
    void api.post('/systemOverlay/click', { so_id: current.so_id }, { quiet: true }).catch(() => {})
    const href = overlayJumpHref(current.so_jump_type, current.so_jump_params)
    next()
    if (!href) return
    if (href.startsWith('/')) void navigate(href)
    else window.location.assign(href)
  }

  return (
    <Suspense fallback={null}>
      <OverlayView key={current.so_id} overlay={current} onClose={next} onOpen={open} />
    </Suspense>
  )
}
