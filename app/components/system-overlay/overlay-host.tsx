import { lazy, Suspense, useEffect, useState } from 'react'
import { useLocation, useNavigate, useParams } from 'react-router'
import { api } from '#app/lib/api.ts'
import { documentCookies } from '#app/lib/browser-storage.ts'
import { watchLayout } from '#app/lib/watch-layout.ts'
import { overlayJumpHref, overlaySeenCookie, overlayToShow, showsOverlays } from '#app/lib/route-rules.ts'
import type { Overlay as SystemOverlay } from '#server/modules/overlays/overlays.schema.ts'
import { DEFAULT_OVERLAY_CAPS, type OverlayCaps } from '#shared/overlay-caps.ts'

const OverlayView = lazy(() => import('./overlay-view.tsx'))

/** How many overlays this browser session has shown (issue 10 §4's cap per session; '1' before it was a count). */
const SESSION_KEY = 'zx_overlay_shown'

/** The notice showing, on the page view it was picked on, with what picks the next one there. */
interface Showing {
  overlay: SystemOverlay
  reserve: number
  path: string
  list: readonly SystemOverlay[]
  caps: OverlayCaps
  /** How many notices this page view has shown, this one included. */
  page: number
}

function seen(overlay: SystemOverlay): boolean {
  return documentCookies.get(overlaySeenCookie(overlay.so_id)) !== undefined
}

function markSeen(overlay: SystemOverlay, seenDays: number): void {
  documentCookies.set(overlaySeenCookie(overlay.so_id), '1', seenDays * 24 * 3600)
  try {
    sessionStorage.setItem(SESSION_KEY, String(shownThisSession() + 1))
  } catch {
    // Storage switched off: the seen cookie still keeps this one from coming back.
  }
}

function shownThisSession(): number {
  try {
    return Number(sessionStorage.getItem(SESSION_KEY)) || 0
  } catch {
    return 0
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
 * System notices (spec 4 and 9, issue 10 §4): on entering an allowed page the list is fetched with the caps
 * operators set, and notices not seen within `seen_days` show one at a time, up to `per_page` on this page view
 * (closing one opens the next) and `per_session` in the session unless the operator marked one urgent (by default
 * one, one, 30 days). A notice counts as seen once shown, so a reload never repeats it. The drawing code loads only
 * when there is something to show.
 */
export function OverlayHost() {
  const location = useLocation()
  const params = useParams()
  const navigate = useNavigate()
  const allowed = showsOverlays(location.pathname, location.search, params)
  const [current, setCurrent] = useState<Showing | null>(null)

  /** The next notice of this page view (the `page`-th), or null; it counts as seen once picked. */
  const pick = (list: readonly SystemOverlay[], caps: OverlayCaps, page: number, path: string): Showing | null => {
    const next = overlayToShow(
      list.filter((o) => !seen(o)),
      { page, session: shownThisSession() },
      caps,
    )
    if (!next) return null
    const reserve = primaryActionReserve()
    // A primary button high up the screen leaves no room: no overlay on this page view.
    if (reserve > window.innerHeight / 2) return null
    markSeen(next, caps.seen_days)
    return { overlay: next, reserve, path, list, caps, page: page + 1 }
  }

  useEffect(() => {
    if (!allowed) return
    const controller = new AbortController()
    api
      .get<{ list?: SystemOverlay[]; caps?: OverlayCaps }>('/systemOverlay', undefined, { signal: controller.signal })
      .then((data) => {
        const first = pick(data.list ?? [], data.caps ?? DEFAULT_OVERLAY_CAPS, 0, location.pathname)
        if (first) setCurrent(first)
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

  // Closing a notice opens the next one this page view may still show; following its jump leaves the page.
  const close = () => setCurrent(pick(current.list, current.caps, current.page, current.path))
  const open = () => {
    void api.post('/systemOverlay/click', { so_id: overlay.so_id }, { quiet: true }).catch(() => {})
    const href = overlayJumpHref(overlay.so_jump_type, overlay.so_jump_params)
    setCurrent(null)
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
