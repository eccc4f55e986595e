import { useEffect, useState, type MouseEventHandler, type ReactNode } from 'react'
import { PrefetchPageLinks, useLocation, useNavigate } from 'react-router'

/**
 * A link to a path of this app drawn as a bare `<a>`, for the links a screen repeats (course cards, lessons).
 * React Router's `<Link>` runs several hooks per link while the server renders (the path's resolution, its click
 * handler, its prefetch behaviour): about 8 % of the home page's render with its 40 cards (docs/performance.md,
 * issue 11 §3). `<LinkDelegation>` in the root gives every bare link what `<Link prefetch="intent">` gives: a click
 * navigates inside the app, and touching, hovering or focusing one prefetches its page. `data-discover` lets React
 * Router find its route ahead, as it does for `<Link>`.
 */
export function BareLink({
  to,
  className,
  onClick,
  children,
  label,
  replace = false,
  prefetch = true,
  ...data
}: {
  /** A path of this app: `/course/1001.html`, `/boutique?cate=1`. */
  to: `/${string}`
  className?: string
  onClick?: MouseEventHandler<HTMLAnchorElement>
  children: ReactNode
  label?: string
  /** Replace the current history entry instead of adding one (as `<Link replace>`). */
  replace?: boolean
  /** Prefetch the page on intent (as `<Link prefetch="intent">`); false where its loader costs the server work. */
  prefetch?: boolean
  'aria-current'?: 'page'
  [data: `data-${string}`]: string
}) {
  return (
    <a
      href={to}
      className={className}
      onClick={onClick}
      aria-label={label}
      data-discover="true"
      data-bare-link={replace ? 'replace' : ''}
      data-prefetch={prefetch ? undefined : 'none'}
      {...data}
    >
      {children}
    </a>
  )
}

/** Whether `to` is a path of this app: not `https://…`, `//host/…` or `/\\host/…`, which browsers send away. */
export function isAppPath(to: string): to is `/${string}` {
  return /^\/(?![\\/])/.test(to)
}

/** How long a pointer or focus rests on a link before its page is prefetched (React Router's `intent` waits 100 ms). */
const INTENT_MS = 100

/** The bare link an event happened in, if any. */
function bareLinkOf(event: Event) {
  return event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[data-bare-link]') : null
}

/** A click the browser would follow in this tab: the main button, no modifier, no other target, same origin. */
function followsInPlace(event: MouseEvent, link: HTMLAnchorElement) {
  return (
    event.button === 0 &&
    !event.defaultPrevented &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) &&
    (!link.target || link.target === '_self') &&
    !link.hasAttribute('download') &&
    link.origin === window.location.origin
  )
}

/**
 * Once, in the root: clicks on bare links navigate inside the app (replacing the history entry for a `replace` link
 * or the same location again, as `<Link>` does), and the link a finger touches, or a pointer or focus rests on for
 * 100 ms, has its page's data and modules prefetched (`<PrefetchPageLinks>`, as `<Link prefetch="intent">` renders).
 * Listens on `window`, after React's own handlers on the document, so a handler that prevented the default keeps the
 * browser's or its own behaviour (and one that stops the click's propagation leaves it to the browser: a full page
 * load).
 */
export function LinkDelegation() {
  const navigate = useNavigate()
  const { key } = useLocation()
  const [page, setPage] = useState<string | null>(null)
  // A new location: the link that was intended has done its work or is gone (a `<Link>` unmounts its prefetch).
  const [shownAt, setShownAt] = useState(key)
  if (shownAt !== key) {
    setShownAt(key)
    setPage(null)
  }

  useEffect(() => {
    let timer: number | undefined
    const intend = (link: HTMLAnchorElement) => {
      if (link.dataset.prefetch === 'none') return
      window.clearTimeout(timer)
      timer = window.setTimeout(() => setPage(link.pathname + link.search), INTENT_MS)
    }
    const cancel = () => {
      window.clearTimeout(timer)
      setPage(null)
    }
    const onClick = (event: MouseEvent) => {
      const link = bareLinkOf(event)
      if (!link || !followsInPlace(event, link)) return
      event.preventDefault()
      cancel()
      const path = link.pathname + link.search + link.hash
      const here = window.location.pathname + window.location.search + window.location.hash
      void navigate(path, { replace: link.dataset.bareLink === 'replace' || path === here })
    }
    const onTouch = (event: TouchEvent) => {
      const link = bareLinkOf(event)
      if (link) intend(link)
    }
    // mouseover/mouseout and focusin/focusout bubble; entering or leaving a child of the same link is not a move.
    const onEnter = (event: MouseEvent | FocusEvent) => {
      const link = bareLinkOf(event)
      if (link && !(event.relatedTarget instanceof Node && link.contains(event.relatedTarget))) intend(link)
    }
    const onLeave = (event: MouseEvent | FocusEvent) => {
      const link = bareLinkOf(event)
      if (link && !(event.relatedTarget instanceof Node && link.contains(event.relatedTarget))) cancel()
    }
    // One signal removes every listener at once.
    const listening = new AbortController()
    const signal = listening.signal
    window.addEventListener('click', onClick, { signal })
    window.addEventListener('touchstart', onTouch, { passive: true, signal })
    window.addEventListener('mouseover', onEnter, { signal })
    window.addEventListener('mouseout', onLeave, { signal })
    window.addEventListener('focusin', onEnter, { signal })
    window.addEventListener('focusout', onLeave, { signal })
    return () => {
      window.clearTimeout(timer)
      listening.abort()
    }
  }, [navigate])

  return page ? <PrefetchPageLinks page={page} /> : null
}
