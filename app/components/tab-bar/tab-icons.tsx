import type { ReactNode } from 'react'
import type { TabKey } from '#app/lib/route-rules.ts'

/** The outline every shape is drawn with; the active tab fills it. */
function outline(active: boolean) {
  return {
    fill: active ? 'currentColor' : 'none',
    stroke: 'currentColor',
    strokeWidth: 1.8,
    strokeLinejoin: 'round',
    strokeLinecap: 'round',
  } as const
}

type Outline = ReturnType<typeof outline>

/** Each tab's drawing, from its outlined shapes; an active one adds white details on the filled shape. */
const DRAWINGS: Record<TabKey, (line: Outline, active: boolean) => ReactNode> = {
  home: (line, active) => (
    <>
      <path d="M3.5 10.5 12 3.5l8.5 7V20a.5.5 0 0 1-.5.5h-5v-6h-6v6H4a.5.5 0 0 1-.5-.5z" {...line} />
      {active ? <path d="M9 20.5v-6h6v6" fill="none" stroke="#fff" strokeWidth="1.8" /> : null}
    </>
  ),
  category: (line) => (
    <>
      <rect x="3.5" y="3.5" width="7" height="7" rx="1.5" {...line} />
      <rect x="13.5" y="3.5" width="7" height="7" rx="1.5" {...line} />
      <rect x="3.5" y="13.5" width="7" height="7" rx="1.5" {...line} />
      <circle cx="17" cy="17" r="3.6" {...line} />
    </>
  ),
  vip: (line, active) => (
    <>
      <path d="M3.5 7.5 8 11l4-6.5 4 6.5 4.5-3.5-1.8 11H5.3z" {...line} />
      {active ? <path d="M8.5 15.5h7" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" /> : null}
    </>
  ),
  purchased: (line, active) => (
    <>
      <rect x="4" y="3.5" width="16" height="17" rx="2" {...line} />
      <path
        d="m10 8.5 5 3.5-5 3.5z"
        fill={active ? '#fff' : 'none'}
        stroke={active ? '#fff' : 'currentColor'}
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
    </>
  ),
  mine: (line) => (
    <>
      <circle cx="12" cy="8" r="4.2" {...line} />
      <path d="M4 20.5c.8-4 4-6.2 8-6.2s7.2 2.2 8 6.2z" {...line} />
    </>
  ),
}

/** Outline icons for the tab bar; the active tab fills its shape. 24×24, currentColor. */
export function TabIcon({ tab, active }: { tab: TabKey; active: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
      {DRAWINGS[tab](outline(active), active)}
    </svg>
  )
}
