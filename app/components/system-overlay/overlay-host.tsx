import { lazy, Suspense, useEffect, useState } from 'react'
import { useLocation, useNavigate, useParams } from 'react-router'
import { api } from '#app/lib/api.ts'
import { documentCookies } from '#app/lib/browser-storage.ts'
import { watchLayout } from '#app/lib/watch-layout.ts'
import {
  OVERLAY_SEEN_DAYS,
  overlayJumpHref,
  overlaySeenCookie,
  overlayToShow,
  showsOverlays,
} from '#app/lib/route-rules.ts'
import type { Overlay as SystemOverlay } from '#server/modules/overlays/overlays.schema.ts'

const OverlayView = lazy(() => import('./overlay-view.tsx'))

/** Set for the browser session once an overlay has shown (issue 10 §4: one per session unless urgent). */
const SESSION_KEY = 'zx_overlay_shown'

function seen(overlay: SystemOverlay): boolean {
  return documentCookies.get(overlaySeenCookie(overlay.so_id)) !== undefined
}

function markSeen(overlay: SystemOverlay): void {
  documentCookies.set(overlaySeenCookie(overlay.so_id), '1', OVERLAY_SEEN_DAYS * 24 * 3600)
  try {
    sessionStorage.setItem(SESSION_KEY, '1')
  } catch {
    // Storage switched off: the seen cookie still keeps this one from coming back.
  }
}

function shownThisSession(): boolean {
  try {
    return sessionStorage.getItem(SESSION_KEY) === '1'
  } catch {
    return false
  }
}

/**
 * How much of the viewport's bottom the page's primary action takes (its fixed action bar, or an element marked
 * `data-primary-action`): the overlay stops above it, so a notice never sits over the button the page is for.
 */
function primaryActionReserve(): number {
  let reserve = 0
  for (const el of document.querySelectorAll('.zx-bottomBar, [data-primary-action]')) {
    const r = el.getBoundingClientRect()
    if (r.height === 0 || r.bottom <= 0 || r.top >= window.innerHeight) continue
    reserve = Math.max(reserve, window.innerHeight - r.top)
  }
  return reserve
}

/**
 * System notices (spec 4 and 9, issue 10 §4): on entering an allowed page the list is fetched and at most one
 * notice not seen in the last 30 days shows, and only the first of the session unless the operator marked it
 * urgent. A notice counts as seen once shown, so a reload never repeats it. The drawing code loads only when
 * there is something to show.
 */
export function OverlayHost() {
  const location = useLocation()
  const params = useParams()
  const navigate = useNavigate()
  const allowed = showsOverlays(location.pathname, location.search, params)
  const [current, setCurrent] = useState<{ overlay: SystemOverlay; reserve: number; path: string } | null>(null)

  useEffect(() => {
    if (!allowed) return
    const controller = new AbortController()
    api
      .get<{ list?: SystemOverlay[] }>('/systemOverlay', undefined, { signal: controller.signal })
      .then((data) => {
        const pick = overlayToShow(
          (data.list ?? []).filter((o) => !seen(o)),
          shownThisSession(),
        )
        if (!pick) return
        const reserve = primaryActionReserve()
        // A primary button high up the screen leaves no room: no overlay on this page view.
        if (reserve > window.innerHeight / 2) return
        markSeen(pick)
        setCurrent({ overlay: pick, reserve, path: location.pathname })
      })
      .catch(() => {
        // The wrapper already showed the server's message (spec 8); the page itself is unaffected.
      })
    return () => controller.abort()
    // One page view: entering another page looks again; the caps above keep it from stacking.
  }, [allowed, location.pathname])

  // The page's list may arrive after the notice (a bar that appears with it): keep the space measured.
  // A notice belongs to the page view it was picked on.
  const showing = current !== null && current.path === location.pathname
  useEffect(() => {
    if (!showing) return
    let frame = 0
    const measure = () => {
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(() => {
        const reserve = primaryActionReserve()
        setCurrent((c) => (c && c.reserve !== reserve ? { ...c, reserve } : c))
      })
    }
    const stopWatching = watchLayout(document.querySelector('.zx-app') ?? document.body, measure)
    measure()
    return () => {
      cancelAnimationFrame(frame)
      stopWatching()
    }
  }, [showing])

  if (!current || !showing) return null
  const { overlay, reserve } = current

  const close = () => setCurrent(null)
  const open = () => {
    void api.post('/systemOverlay/click', { so_id: overlay.so_id }, { quiet: true }).catch(() => {})
    const href = overlayJumpHref(overlay.so_jump_type, overlay.so_jump_params)
    close()
    if (!href) return
    if (href.startsWith('/')) void navigate(href)
    else window.location.assign(href)
  }

  return (
    <Suspense fallback={null}>
      <OverlayView key={overlay.so_id} overlay={overlay} onClose={close} onOpen={open} reserveBottom={reserve} />
    </Suspense>
  )
}
