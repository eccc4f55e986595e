import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { api } from '#app/lib/api.ts'
import { documentCookies } from '#app/lib/browser-storage.ts'
import { overlayJumpHref, overlayToShow } from '#app/lib/overlay-rules.ts'
import { overlaySeenCookie } from '#app/lib/route-rules.ts'
import { watchLayout } from '#app/lib/watch-layout.ts'
import type { Overlay as SystemOverlay } from '#server/modules/overlays/overlays.schema.ts'
import { DEFAULT_OVERLAY_CAPS, type OverlayCaps } from '#shared/overlay-caps.ts'
import OverlayView from './overlay-view.tsx'

/** How many overlays this browser session has shown (issue 10 §4's cap per session; '1' before it was a count). */
const SESSION_KEY = 'zx_overlay_shown'

/** The notice showing, with what picks the next one on this page view. */
interface Showing {
  overlay: SystemOverlay
  reserve: number
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

/** The next notice of this page view (after `page` shown), or null; it counts as seen once picked. */
function pick(list: readonly SystemOverlay[], caps: OverlayCaps, page: number): Showing | null {
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
  return { overlay: next, reserve, page: page + 1 }
}

/**
 * The notices of one page view (spec 4 and 9, issue 10 §4), given the list the host fetched: notices not seen
 * within `seen_days` show one at a time, up to `per_page` on this page view (closing one opens the next) and
 * `per_session` in the session unless the operator marked one urgent. A notice counts as seen once shown, so a
 * reload never repeats it. Loaded by overlay-host.tsx only when a page has notices (issue 11 §4).
 */
export default function OverlaySession({
  list,
  caps = DEFAULT_OVERLAY_CAPS,
}: {
  list: readonly SystemOverlay[]
  caps?: OverlayCaps | undefined
}) {
  const navigate = useNavigate()
  const [current, setCurrent] = useState<Showing | null>(null)
  // The first pick marks a notice seen: once per page view, even when an effect runs twice.
  const started = useRef(false)

  useEffect(() => {
    if (started.current) return
    started.current = true
    setCurrent(pick(list, caps, 0))
  }, [list, caps])

  // The page's list may arrive after the notice (a bar that appears with it): keep the space measured.
  const showing = current !== null
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

  if (!current) return null
  const { overlay, reserve } = current

  // Closing a notice opens the next one this page view may still show; following its jump leaves the page.
  const close = () => setCurrent(pick(list, caps, current.page))
  const open = () => {
    void api.post('/systemOverlay/click', { so_id: overlay.so_id }, { quiet: true }).catch(() => {})
    const href = overlayJumpHref(overlay.so_jump_type, overlay.so_jump_params)
    setCurrent(null)
    if (!href) return
    if (href.startsWith('/')) void navigate(href)
    else window.location.assign(href)
  }

  return <OverlayView key={overlay.so_id} overlay={overlay} onClose={close} onOpen={open} reserveBottom={reserve} />
}
