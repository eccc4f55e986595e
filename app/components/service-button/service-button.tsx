import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react'
import { useLocation } from 'react-router'
import { sendStat } from '#app/lib/stat.ts'
import { AppEvent, onAppEvent } from '#app/lib/events.ts'
import { clampTop, isTap, snapSide, type Side } from '#app/lib/float-position.ts'
import { inWechat } from '#app/lib/platform.ts'
import { showsConsultButton, showsServiceButton } from '#app/lib/route-rules.ts'
import styles from './service-button.module.css'
import { useTuck } from './use-tuck.ts'

/** Opens an outside chat link: in WeChat's browser in place (new windows are unreliable there), else a new tab. */
export function openExternal(url: string): void {
  if (inWechat()) window.location.assign(url)
  else window.open(url, '_blank', 'noopener,noreferrer')
}

interface Drag {
  pointerId: number
  startedAt: number
  startX: number
  startY: number
  offsetX: number
  offsetY: number
  moved: number
  /** Which button the press started on; pointer capture retargets the later events to the container. */
  link: 'service' | 'consult'
}

function column(el: HTMLElement): { left: number; width: number } {
  const host = el.closest('.zx-app') ?? document.body
  const rect = host.getBoundingClientRect()
  return { left: rect.left, width: rect.width }
}

/**
 * The floating customer-service button (spec 2): hidden on the paths of route-rules.ts, draggable, snapping to
 * the nearer edge of the page column, starting at 78% of the viewport height. A quick tap opens the service
 * link; a `showConsult` event adds the "consult" button above it, which opens the consult link.
 */
export function ServiceButton({
  serviceUrl,
  consultUrl,
  consultOnCheckout = false,
}: {
  serviceUrl: string
  consultUrl: string
  consultOnCheckout?: boolean
}) {
  const { pathname } = useLocation()
  const ref = useRef<HTMLDivElement>(null)
  const drag = useRef<Drag | null>(null)
  /** null until the first drag: the CSS default (right edge, 78% down) holds. */
  const [placed, setPlaced] = useState<{ side: Side; top: number } | null>(null)
  const [dragAt, setDragAt] = useState<{ left: number; top: number } | null>(null)
  const [consult, setConsult] = useState(false)
  const visible = showsServiceButton(pathname)
  // The consult button shows on the screens that ask for it, even where the service button hides (system courses).
  const consultHere = consult || showsConsultButton(pathname, consultOnCheckout)
  const tucked = useTuck(ref, visible && !dragAt, `${pathname}:${placed?.side}:${placed?.top}:${consult}`)

  useEffect(() => {
    const offShow = onAppEvent(AppEvent.showConsult, () => setConsult(true))
    const offHide = onAppEvent(AppEvent.hideConsult, () => setConsult(false))
    return () => {
      offShow()
      offHide()
    }
  }, [])

  if (!visible && !consultHere) return null

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || !ref.current) return
    const rect = ref.current.getBoundingClientRect()
    drag.current = {
      pointerId: event.pointerId,
      startedAt: performance.now(),
      startX: event.clientX,
      startY: event.clientY,
      offsetX: event.clientX - rect.left,
      offsetY: event.clientY - rect.top,
      moved: 0,
      link:
        (event.target as HTMLElement).closest<HTMLElement>('[data-link]')?.dataset.link === 'consult'
          ? 'consult'
          : 'service',
    }
    ref.current.setPointerCapture(event.pointerId)
  }

  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current
    if (!d || d.pointerId !== event.pointerId || !ref.current) return
    d.moved = Math.max(d.moved, Math.hypot(event.clientX - d.startX, event.clientY - d.startY))
    if (d.moved <= 6) return
    const rect = ref.current.getBoundingClientRect()
    setDragAt({
      left: event.clientX - d.offsetX,
      top: clampTop(event.clientY - d.offsetY, rect.height, window.innerHeight),
    })
  }

  const finish = (event: ReactPointerEvent<HTMLDivElement>, cancelled: boolean) => {
    const d = drag.current
    if (!d || d.pointerId !== event.pointerId || !ref.current) return
    drag.current = null
    const rect = ref.current.getBoundingClientRect()
    if (!cancelled && isTap(performance.now() - d.startedAt, d.moved)) {
      // Spec 7: the service button's tap is counted with position 3 (signed-in members only).
      if (d.link === 'service') sendStat('customer', { position: 3 })
      openExternal(d.link === 'consult' ? consultUrl : serviceUrl)
      return
    }
    if (d.moved > 6) {
      const col = column(ref.current)
      setPlaced({
        side: snapSide(rect.left + rect.width / 2, col.left, col.width),
        top: clampTop(rect.top, rect.height, window.innerHeight),
      })
      setDragAt(null)
    }
  }

  // The snapped side is kept as CSS (left/right of the column), so it stays right when the window resizes.
  const style = dragAt
    ? { left: dragAt.left, top: dragAt.top, right: 'auto', transition: 'none' }
    : placed
      ? { top: placed.top, ...(placed.side === 'left' ? { left: 'var(--zx-float-left)', right: 'auto' } : {}) }
      : undefined

  return (
    <div
      ref={ref}
      className={`${styles.float} ${tucked && !dragAt ? styles.tucked : ''}`}
      style={style}
      data-side={placed?.side ?? 'right'}
      data-tucked={tucked && !dragAt ? 'true' : undefined}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={(e) => finish(e, false)}
      onPointerCancel={(e) => finish(e, true)}
      data-testid={visible ? 'service-button' : 'consult-float'}
    >
      {consultHere ? (
        <button
          type="button"
          className={`${styles.button} ${styles.consult} ${visible ? '' : styles.alone}`}
          data-link="consult"
          aria-label="课程咨询"
          // Pointer taps are handled above; a keyboard "click" (detail 0) opens the link here.
          onClick={(e) => e.detail === 0 && openExternal(consultUrl)}
        >
          <span className={styles.text}>咨询</span>
        </button>
      ) : null}
      {visible ? (
        <button
          type="button"
          className={styles.button}
          data-link="service"
          aria-label="联系客服"
          onClick={(e) => e.detail === 0 && openExternal(serviceUrl)}
        >
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path
              d="M4.5 13v-1.5a7.5 7.5 0 0 1 15 0V13M4.5 13h2v5h-2a1 1 0 0 1-1-1v-3a1 1 0 0 1 1-1Zm15 0h-2v5h2a1 1 0 0 0 1-1v-3a1 1 0 0 0-1-1ZM17.5 18c0 1.5-1.5 2.5-4 2.5"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
            />
          </svg>
          <span className={styles.text}>客服</span>
        </button>
      ) : null}
    </div>
  )
}
