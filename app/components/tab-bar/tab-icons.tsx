import type { ReactNode } from 'react'
import type { TabKey } from '#app/lib/route-rules.ts'

/**
 * The outline every shape is drawn with; the active tab fills it. Set once on the <svg>: its shapes inherit these
 * (SVG presentation attributes), so the server sends them once per icon instead of once per shape (issue 11 §3).
 */
function outline(active: boolean) {
  return {
    fill: active ? 'currentColor' : 'none',
    stroke: 'currentColor',
    strokeWidth: 1.8,
    strokeLinejoin: 'round',
    strokeLinecap: 'round',
  } as const
}

/**
 * Each tab's drawing, from its outlined shapes; an active one adds white details on the filled shape (they say what
 * they do not inherit: the home door's corners and ends are the SVG defaults, miter and butt).
 */
const DRAWINGS: Record<TabKey, (active: boolean) => ReactNode> = {
  home: (active) => (
    <>
      <path d="M3.5 10.5 12 3.5l8.5 7V20a.5.5 0 0 1-.5.5h-5v-6h-6v6H4a.5.5 0 0 1-.5-.5z" />
      {active ? (
        <path d="M9 20.5v-6h6v6" fill="none" stroke="#fff" strokeLinejoin="miter" strokeLinecap="butt" />
      ) : null}
    </>
  ),
  category: () => (
    <>
      <rect x="3.5" y="3.5" width="7" height="7" rx="1.5" />
      <rect x="13.5" y="3.5" width="7" height="7" rx="1.5" />
      <rect x="3.5" y="13.5" width="7" height="7" rx="1.5" />
      <circle cx="17" cy="17" r="3.6" />
    </>
  ),
  vip: (active) => (
    <>
      <path d="M3.5 7.5 8 11l4-6.5 4 6.5 4.5-3.5-1.8 11H5.3z" />
      {active ? <path d="M8.5 15.5h7" stroke="#fff" /> : null}
    </>
  ),
  purchased: (active) => (
    <>
      <rect x="4" y="3.5" width="16" height="17" rx="2" />
      <path d="m10 8.5 5 3.5-5 3.5z" fill={active ? '#fff' : 'none'} stroke={active ? '#fff' : 'currentColor'} />
    </>
  ),
  mine: () => (
    <>
      <circle cx="12" cy="8" r="4.2" />
      <path d="M4 20.5c.8-4 4-6.2 8-6.2s7.2 2.2 8 6.2z" />
    </>
  ),
}

/** Outline icons for the tab bar; the active tab fills its shape. 24×24, currentColor. */
export function TabIcon({ tab, active }: { tab: TabKey; active: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" {...outline(active)}>
      {DRAWINGS[tab](active)}
    </svg>
  )
}
