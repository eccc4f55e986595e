import { useEffect, useState, type RefObject } from 'react'
import { boxesOverlap, type Box } from '#app/lib/float-position.ts'
import { watchLayout } from '#app/lib/watch-layout.ts'

/** How long the page must stay still before the button looks again whether it may come out. */
const SETTLE_MS = 180

/** Controls a learner taps or types into: the button must not rest over them either (a form's submit button). */
const CONTROLS = new Set(['BUTTON', 'INPUT', 'TEXTAREA', 'SELECT'])

/**
 * Whether any line of text, or any form control (button, field), on the page lies under `box`. The walk starts at
 * the page column and skips every element whose own box misses `box` (its children are inside it), so it touches a
 * few dozen nodes, not the page.
 */
function textUnder(root: Element, box: Box, skip: Element): boolean {
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
        if (CONTROLS.has(child.tagName) && r.width > 0 && boxesOverlap(r, box)) return true
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

/**
 * Issue 10 §4: the button rests at 78% on the edge, but never over text a learner reads nor over a control (a
 * form's button or field). While the page scrolls it tucks into the page's edge margin (a small, semi-transparent
 * tab); once the page is still it comes out only where its full size covers no text and no control, and otherwise
 * stays tucked. Content that arrives later (comments, a list
 * page) is looked at too.
 */
export function useTuck(ref: RefObject<HTMLElement | null>, enabled: boolean, key: unknown): boolean {
  const [tucked, setTucked] = useState(false)

  useEffect(() => {
    if (!enabled) return
    let timer: ReturnType<typeof setTimeout> | undefined
    const check = () => {
      const el = ref.current
      if (!el) return
      // The untucked box: offsets ignore the transform that tucks it, and a fixed element's are the viewport's.
      const box = {
        left: el.offsetLeft,
        right: el.offsetLeft + el.offsetWidth,
        top: el.offsetTop,
        bottom: el.offsetTop + el.offsetHeight,
      }
      const root = el.closest('.zx-app') ?? document.body
      setTucked(textUnder(root, box, el))
    }
    const later = () => {
      clearTimeout(timer)
      timer = setTimeout(check, SETTLE_MS)
    }
    const onScroll = () => {
      setTucked(true)
      later()
    }
    const stopWatching = watchLayout(ref.current?.closest('.zx-app') ?? document.body, later, { text: true })
    window.addEventListener('scroll', onScroll, { passive: true })
    later()
    return () => {
      clearTimeout(timer)
      stopWatching()
      window.removeEventListener('scroll', onScroll)
    }
  }, [ref, enabled, key])

  return tucked
}
