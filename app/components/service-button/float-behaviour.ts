import { boxesOverlap, clampTop, isTap, snapSide, type Box } from '#app/lib/float-position.ts'
import { watchLayout } from '#app/lib/watch-layout.ts'

/**
 * What the floating service button does besides being a button (spec 2 and 9, issue 10 §4): it follows a finger,
 * snaps to the nearer edge of the page column, and tucks into the page's edge margin while the page scrolls or
 * where it would rest over text, an icon or a control. Loaded after the page is idle or on the first press
 * (service-button.tsx; issue 11 §4): until then the button is a plain button that opens the chat on a click.
 * Works on the element directly (its style and data attributes), so the component needs no state for it.
 */

/** How long the page must stay still before the button looks again whether it may come out. */
const SETTLE_MS = 180
/** Finger movement that makes a press a drag, in CSS pixels. */
const DRAG_FROM = 6

/** Controls a learner taps or types into: the button must not rest over them either (a form's submit button). */
const CONTROLS = new Set(['BUTTON', 'INPUT', 'TEXTAREA', 'SELECT'])

/**
 * An icon says something without text (the lock of a lesson one must buy, a play mark): an `<svg>` or `<img>` no
 * larger than this either way. Larger pictures (covers, banners) may lie under the button, or it would never come
 * out on a list of covers.
 */
const ICON_MAX = 48

function isIcon(el: Element, r: DOMRect): boolean {
  return (el instanceof SVGSVGElement || el instanceof HTMLImageElement) && r.width <= ICON_MAX && r.height <= ICON_MAX
}

/**
 * Whether any line of text, any icon, or any form control (button, field) on the page lies under `box`. The walk
 * starts at the page column and skips every element whose own box misses `box` (its children are inside it), so it
 * touches a few dozen nodes, not the page.
 */
function contentUnder(root: Element, box: Box, skip: Element): boolean {
  const range = document.createRange()
  const visit = (el: Element): boolean => {
    if (el === skip) return false
    for (const child of el.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        if (!child.textContent?.trim()) continue
        range.selectNodeContents(child)
        for (const line of range.getClientRects()) if (line.width > 0 && boxesOverlap(line, box)) return true
      } else if (child instanceof Element) {
        const r = child.getBoundingClientRect()
        if ((CONTROLS.has(child.tagName) || isIcon(child, r)) && r.width > 0 && boxesOverlap(r, box)) return true
        // A box with no size may still hold visible children (display: contents, overflow): look inside it.
        if ((r.width === 0 && r.height === 0) || boxesOverlap(r, box)) {
          if (visit(child)) return true
        }
      }
    }
    return false
  }
  return visit(root)
}

export type FloatLink = 'service' | 'consult'

export interface FloatOptions {
  /** A quick tap on one of the buttons (the component opens its link). */
  onTap: (link: FloatLink) => void
  /** Whether the button may tuck (not where only the consult button shows). */
  tucks: boolean
  /**
   * The press that asked for this code before it had loaded, with what followed it: the gesture continues from
   * them (a drag moves on; a tap was already opened by the button's click).
   */
  replay?: readonly PointerEvent[]
}

export interface FloatBehaviour {
  /** Looks again whether the button may come out (the page, or what the button shows, changed). */
  recheck: (tucks: boolean) => void
  /** Whether the click that follows a press was handled here (a tap it opened, or a drag): then ignore it. */
  claimsClick: () => boolean
  detach: () => void
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
  link: FloatLink
  dragging: boolean
}

function column(el: HTMLElement): { left: number; width: number } {
  const host = el.closest('.zx-app') ?? document.body
  const rect = host.getBoundingClientRect()
  return { left: rect.left, width: rect.width }
}

/**
 * Issue 10 §4: the button rests at 78% on the edge, but never over text a learner reads, an icon (a locked lesson's
 * lock) nor a control (a form's button or field). While the page scrolls it tucks into the page's edge margin (a
 * small, semi-transparent tab); once the page is still it comes out only where its full size covers no text, no icon
 * and no control, and otherwise stays tucked. Content that arrives later (comments, a list page) is looked at too.
 */
/**
 * The untucked box of the buttons: offsets ignore the transform that tucks them, and a fixed element's are the
 * viewport's. The buttons' own boxes count too: the consult button sits above the container's (service-button.tsx).
 */
function untuckedBox(el: HTMLElement): Box {
  const box = {
    left: el.offsetLeft,
    right: el.offsetLeft + el.offsetWidth,
    top: el.offsetTop,
    bottom: el.offsetTop + el.offsetHeight,
  }
  for (const child of el.children) {
    if (!(child instanceof HTMLElement) || child.offsetParent !== el) continue
    box.left = Math.min(box.left, el.offsetLeft + child.offsetLeft)
    box.right = Math.max(box.right, el.offsetLeft + child.offsetLeft + child.offsetWidth)
    box.top = Math.min(box.top, el.offsetTop + child.offsetTop)
    box.bottom = Math.max(box.bottom, el.offsetTop + child.offsetTop + child.offsetHeight)
  }
  return box
}

export function attachFloat(el: HTMLElement, options: FloatOptions): FloatBehaviour {
  let tucks = options.tucks
  let drag: Drag | null = null
  let claimed = false
  let timer: ReturnType<typeof setTimeout> | undefined
  el.dataset.side ??= 'right'

  const setTucked = (tucked: boolean) => {
    if (tucked && tucks && !drag?.dragging) el.dataset.tucked = 'true'
    else delete el.dataset.tucked
  }
  const check = () => {
    if (!tucks || drag?.dragging) return
    setTucked(contentUnder(el.closest('.zx-app') ?? document.body, untuckedBox(el), el))
  }
  const later = () => {
    clearTimeout(timer)
    timer = setTimeout(check, SETTLE_MS)
  }
  const onScroll = () => {
    setTucked(true)
    later()
  }

  const down = (event: PointerEvent) => {
    if (event.button !== 0) return
    claimed = false
    const rect = el.getBoundingClientRect()
    drag = {
      pointerId: event.pointerId,
      startedAt: event.timeStamp,
      startX: event.clientX,
      startY: event.clientY,
      offsetX: event.clientX - rect.left,
      offsetY: event.clientY - rect.top,
      moved: 0,
      link:
        (event.target as HTMLElement).closest<HTMLElement>('[data-link]')?.dataset.link === 'consult'
          ? 'consult'
          : 'service',
      dragging: false,
    }
    try {
      el.setPointerCapture(event.pointerId)
    } catch {
      // The press is already over (the code arrived late): the replayed events say so.
    }
  }
  const move = (event: PointerEvent) => {
    const d = drag
    if (!d || d.pointerId !== event.pointerId) return
    d.moved = Math.max(d.moved, Math.hypot(event.clientX - d.startX, event.clientY - d.startY))
    if (d.moved <= DRAG_FROM) return
    d.dragging = true
    delete el.dataset.tucked
    const rect = el.getBoundingClientRect()
    Object.assign(el.style, {
      left: `${event.clientX - d.offsetX}px`,
      top: `${clampTop(event.clientY - d.offsetY, rect.height, window.innerHeight)}px`,
      right: 'auto',
      transition: 'none',
    })
  }
  const finish = (event: PointerEvent, cancelled: boolean, replayed = false) => {
    const d = drag
    if (!d || d.pointerId !== event.pointerId) return
    drag = null
    // A replayed press's click has been seen by the button already.
    claimed = !replayed
    const rect = el.getBoundingClientRect()
    if (!cancelled && isTap(event.timeStamp - d.startedAt, d.moved)) {
      if (!replayed) options.onTap(d.link)
      return
    }
    if (d.moved > DRAG_FROM) {
      // The snapped side is kept as CSS (left/right of the column), so it stays right when the window resizes.
      const col = column(el)
      const side = snapSide(rect.left + rect.width / 2, col.left, col.width)
      el.dataset.side = side
      Object.assign(el.style, {
        top: `${clampTop(rect.top, rect.height, window.innerHeight)}px`,
        left: side === 'left' ? 'var(--zx-float-left)' : '',
        right: side === 'left' ? 'auto' : '',
        transition: '',
      })
      later()
    }
  }
  const up = (event: PointerEvent) => finish(event, false)
  const cancel = (event: PointerEvent) => finish(event, true)

  el.addEventListener('pointerdown', down)
  el.addEventListener('pointermove', move)
  el.addEventListener('pointerup', up)
  el.addEventListener('pointercancel', cancel)
  window.addEventListener('scroll', onScroll, { passive: true })
  const stopWatching = watchLayout(el.closest('.zx-app') ?? document.body, later, { text: true })
  for (const event of options.replay ?? []) {
    if (event.type === 'pointerdown') down(event)
    else if (event.type === 'pointermove') move(event)
    else finish(event, event.type === 'pointercancel', true)
  }
  later()

  return {
    recheck(next) {
      tucks = next
      if (!tucks) setTucked(false)
      later()
    },
    claimsClick() {
      const was = claimed
      claimed = false
      return was
    },
    detach() {
      clearTimeout(timer)
      stopWatching()
      window.removeEventListener('scroll', onScroll)
      el.removeEventListener('pointerdown', down)
      el.removeEventListener('pointermove', move)
      el.removeEventListener('pointerup', up)
      el.removeEventListener('pointercancel', cancel)
    },
  }
}
