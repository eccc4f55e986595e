import { useEffect, useRef, useState, type MouseEvent } from 'react'
import { useLocation } from 'react-router'
import { sendStat } from '#app/lib/stat.ts'
import { AppEvent, onAppEvent } from '#app/lib/events.ts'
import { inWechat } from '#app/lib/platform.ts'
import { showsConsultButton, showsServiceButton } from '#app/lib/route-rules.ts'
import type { FloatBehaviour, FloatLink } from './float-behaviour.ts'
import styles from './service-button.module.css'

/** Opens an outside chat link: in WeChat's browser in place (new windows are unreliable there), else a new tab. */
export function openExternal(url: string): void {
  if (inWechat()) window.location.assign(url)
  else window.open(url, '_blank', 'noopener,noreferrer')
}

/** Opens a button's link; the service button's tap is counted with position 3 (spec 7, signed-in members only). */
function openLink(link: FloatLink, urls: { serviceUrl: string; consultUrl: string }): void {
  if (link === 'service') sendStat('customer', { position: 3 })
  openExternal(link === 'consult' ? urls.consultUrl : urls.serviceUrl)
}

/** Finger movement that makes a press a drag, in CSS pixels (float-behaviour.ts uses the same). */
const DRAG_FROM = 6

/**
 * Runs `load` once the browser is idle (or soon, where it cannot say), or at once on a press. Until the returned
 * function is called (when the code has arrived), a press keeps the pointer and its events are recorded in
 * `gesture`, so the gesture can be replayed to the code.
 */
function whenIdleOrPressed(el: HTMLElement, gesture: PointerEvent[], load: () => void): () => void {
  let loading = false
  const record = (event: PointerEvent) => gesture.push(event)
  const types = ['pointermove', 'pointerup', 'pointercancel'] as const
  const run = () => {
    if (loading) return
    loading = true
    if (idle !== undefined) window.cancelIdleCallback(idle)
    clearTimeout(timer)
    load()
  }
  const onPress = (event: PointerEvent) => {
    if (event.button !== 0) return
    gesture.push(event)
    try {
      el.setPointerCapture(event.pointerId)
    } catch {
      // Not capturable: the events over the button are still recorded.
    }
    for (const type of types) el.addEventListener(type, record)
    run()
  }
  const idle = window.requestIdleCallback?.(run, { timeout: 2000 })
  const timer = idle === undefined ? setTimeout(run, 300) : undefined
  el.addEventListener('pointerdown', onPress)
  // Stops waiting and recording: called once the code has arrived, or when the button goes.
  return () => {
    loading = true
    if (idle !== undefined) window.cancelIdleCallback(idle)
    clearTimeout(timer)
    el.removeEventListener('pointerdown', onPress)
    for (const type of types) el.removeEventListener(type, record)
  }
}

/** Whether recorded events moved far enough from their press to be a drag (its click must not open the chat). */
function dragged(gesture: readonly PointerEvent[]): boolean {
  const [press] = gesture
  return (
    press !== undefined &&
    gesture.some((e) => Math.hypot(e.clientX - press.clientX, e.clientY - press.clientY) > DRAG_FROM)
  )
}

/**
 * The floating customer-service button (spec 2): hidden on the paths of route-rules.ts, starting at 78% of the
 * viewport height on the right edge of the page column. A tap opens the service link; a `showConsult` event adds
 * the "consult" button above it, which opens the consult link. Dragging, snapping to the nearer edge and tucking
 * away from text are float-behaviour.ts, loaded when the page is idle or on the first press (issue 11 §4).
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
  const behaviour = useRef<FloatBehaviour | null>(null)
  /** A press before the behaviour's code arrived, and what followed it: replayed to the code. */
  const gesture = useRef<PointerEvent[]>([])
  const links = useRef({ serviceUrl, consultUrl })
  const visibleNow = useRef(false)
  const [consult, setConsult] = useState(false)
  const visible = showsServiceButton(pathname)
  // The consult button shows on the screens that ask for it, even where the service button hides (system courses).
  const consultHere = consult || showsConsultButton(pathname, consultOnCheckout)
  const shown = visible || consultHere

  useEffect(() => {
    links.current = { serviceUrl, consultUrl }
  }, [serviceUrl, consultUrl])

  useEffect(() => {
    const offShow = onAppEvent(AppEvent.showConsult, () => setConsult(true))
    const offHide = onAppEvent(AppEvent.hideConsult, () => setConsult(false))
    return () => {
      offShow()
      offHide()
    }
  }, [])

  // The behaviour's code, once the button is on the page: kept while it stays (a navigation keeps the element).
  useEffect(() => {
    const el = ref.current
    if (!shown || !el) return
    let attached: FloatBehaviour | null = null
    let gone = false
    const recorded = gesture.current
    const stopWaiting = whenIdleOrPressed(el, recorded, () => {
      void import('./float-behaviour.ts').then(({ attachFloat }) => {
        if (gone) return
        stopWaiting()
        attached = attachFloat(el, {
          onTap: (link) => openLink(link, links.current),
          tucks: visibleNow.current,
          replay: recorded.splice(0),
        })
        behaviour.current = attached
      })
    })
    return () => {
      gone = true
      stopWaiting()
      attached?.detach()
      behaviour.current = null
    }
  }, [shown])

  // What decides tucking changed (another page, the consult button came or went): look again.
  useEffect(() => {
    visibleNow.current = visible
    behaviour.current?.recheck(visible)
  }, [visible, pathname, consult])

  if (!shown) return null

  // A click the behaviour did not handle: a keyboard's (detail 0), or a press before its code arrived.
  const onClick = (event: MouseEvent, link: FloatLink) => {
    if (event.detail !== 0 && (behaviour.current ? behaviour.current.claimsClick() : dragged(gesture.current))) return
    openLink(link, { serviceUrl, consultUrl })
  }

  return (
    <div ref={ref} className={styles.float} data-testid={visible ? 'service-button' : 'consult-float'}>
      {consultHere ? (
        <button
          type="button"
          className={`${styles.button} ${styles.consult} ${visible ? '' : styles.alone}`}
          data-link="consult"
          aria-label="课程咨询"
          onClick={(e) => onClick(e, 'consult')}
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
          onClick={(e) => onClick(e, 'service')}
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
