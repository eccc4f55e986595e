// The icons the app's pages show, as plain inline SVG: a page of the same content draws the same pictures.

const line = {
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const

export const SearchIcon = () => (
  <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
    <circle cx="11" cy="11" r="6.5" {...line} />
    <path d="m16 16 4 4" {...line} />
  </svg>
)

export const BackIcon = () => (
  <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
    <path d="M15 5l-7 7 7 7" {...line} />
  </svg>
)

export const HeartIcon = () => (
  <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
    <path d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10Z" {...line} />
  </svg>
)

export const HeadsetIcon = () => (
  <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
    <path
      d="M4.5 13v-1.5a7.5 7.5 0 0 1 15 0V13M4.5 13h2v5h-2a1 1 0 0 1-1-1v-3a1 1 0 0 1 1-1Zm15 0h-2v5h2a1 1 0 0 0 1-1v-3a1 1 0 0 0-1-1ZM17.5 18c0 1.5-1.5 2.5-4 2.5"
      {...line}
    />
  </svg>
)

const tab = {
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinejoin: 'round',
  strokeLinecap: 'round',
} as const

/** The tab bar's five drawings, with the shapes the app's tab icons have. */
export const TAB_ICONS = {
  home: (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" {...tab}>
      <path d="M3.5 10.5 12 3.5l8.5 7V20a.5.5 0 0 1-.5.5h-5v-6h-6v6H4a.5.5 0 0 1-.5-.5z" />
    </svg>
  ),
  category: (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" {...tab}>
      <rect x="3.5" y="3.5" width="7" height="7" rx="1.5" />
      <rect x="13.5" y="3.5" width="7" height="7" rx="1.5" />
      <rect x="3.5" y="13.5" width="7" height="7" rx="1.5" />
      <circle cx="17" cy="17" r="3.6" />
    </svg>
  ),
  vip: (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" {...tab}>
      <path d="M3.5 7.5 8 11l4-6.5 4 6.5 4.5-3.5-1.8 11H5.3z" />
    </svg>
  ),
  purchased: (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" {...tab}>
      <rect x="4" y="3.5" width="16" height="17" rx="2" />
      <path d="m10 8.5 5 3.5-5 3.5z" />
    </svg>
  ),
  mine: (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" {...tab}>
      <circle cx="12" cy="8" r="4.2" />
      <path d="M4 20.5c.8-4 4-6.2 8-6.2s7.2 2.2 8 6.2z" />
    </svg>
  ),
}
