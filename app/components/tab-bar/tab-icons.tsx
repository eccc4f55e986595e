import type { TabKey } from '#app/lib/route-rules.ts'

/** Outline icons for the tab bar; the active tab fills its shape. 24×24, currentColor. */
export function TabIcon({ tab, active }: { tab: TabKey; active: boolean }) {
  const fill = active ? 'currentColor' : 'none'
  const common = {
    fill,
    stroke: 'currentColor',
    strokeWidth: 1.8,
    strokeLinejoin: 'round' as const,
    strokeLinecap: 'round' as const,
  }
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
      {tab === 'home' ? (
        <>
          <path d="M3.5 10.5 12 3.5l8.5 7V20a.5.5 0 0 1-.5.5h-5v-6h-6v6H4a.5.5 0 0 1-.5-.5z" {...common} />
          {active ? <path d="M9 20.5v-6h6v6" fill="none" stroke="#fff" strokeWidth="1.8" /> : null}
        </>
      ) : null}
      {tab === 'category' ? (
        <>
          <rect x="3.5" y="3.5" width="7" height="7" rx="1.5" {...common} />
          <rect x="13.5" y="3.5" width="7" height="7" rx="1.5" {...common} />
          <rect x="3.5" y="13.5" width="7" height="7" rx="1.5" {...common} />
          <circle cx="17" cy="17" r="3.6" {...common} />
        </>
      ) : null}
      {tab === 'vip' ? (
        <>
          <path d="M3.5 7.5 8 11l4-6.5 4 6.5 4.5-3.5-1.8 11H5.3z" {...common} />
          {active ? <path d="M8.5 15.5h7" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" /> : null}
        </>
      ) : null}
      {tab === 'purchased' ? (
        <>
          <rect x="4" y="3.5" width="16" height="17" rx="2" {...common} />
          <path
            d="m10 8.5 5 3.5-5 3.5z"
            fill={active ? '#fff' : 'none'}
            stroke={active ? '#fff' : 'currentColor'}
            strokeWidth="1.8"
            strokeLinejoin="round"
          />
        </>
      ) : null}
      {tab === 'mine' ? (
        <>
          <circle cx="12" cy="8" r="4.2" {...common} />
          <path d="M4 20.5c.8-4 4-6.2 8-6.2s7.2 2.2 8 6.2z" {...common} />
        </>
      ) : null}
    </svg>
  )
}
