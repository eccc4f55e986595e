// The small line icons several screens draw, in the text colour (currentColor). They are decorative: the link or
// button around them carries the words (aria-label), so each is hidden from screen readers.

interface IconProps {
  /** Width and height in CSS pixels (the drawing is 24×24). */
  size: number
  className?: string
  /** The line's width in the drawing's units (2 unless told). */
  weight?: number
}

const line = { fill: 'none', stroke: 'currentColor', strokeLinecap: 'round', strokeLinejoin: 'round' } as const

/** One stroked path `d` of the 24×24 drawing. */
function LineIcon({ d, size, className, weight = 2 }: IconProps & { d: string }) {
  return (
    <svg className={className} viewBox="0 0 24 24" width={size} height={size} aria-hidden="true">
      <path d={d} {...line} strokeWidth={weight} />
    </svg>
  )
}

/** "›": a row that opens something. */
export const ChevronIcon = (props: IconProps) => <LineIcon d="m9 6 6 6-6 6" {...props} />

/** "‹": back. */
export const BackIcon = (props: IconProps) => <LineIcon d="M15 5l-7 7 7 7" {...props} />

/** "×": close. */
export const CloseIcon = (props: IconProps) => <LineIcon d="M6 6l12 12M18 6 6 18" {...props} />

/** A bell: a notice. */
export const BellIcon = (props: IconProps) => (
  <LineIcon
    d="M12 3.5a5.5 5.5 0 0 0-5.5 5.5v3.2L5 15.5h14l-1.5-3.3V9A5.5 5.5 0 0 0 12 3.5ZM9.8 18.5a2.3 2.3 0 0 0 4.4 0"
    {...props}
  />
)

/** "↓": look below. */
export const DownArrowIcon = (props: IconProps) => <LineIcon d="M12 4v14m0 0-6-6m6 6 6-6" {...props} />

/** A magnifier: search. */
export function SearchIcon({ size, className }: IconProps) {
  return (
    <svg className={className} viewBox="0 0 24 24" width={size} height={size} aria-hidden="true">
      <circle cx="11" cy="11" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="m16 16 4 4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  )
}
