// The small line icons several screens draw, in the text colour (currentColor). They are decorative: the link or
// button around them carries the words (aria-label), so each is hidden from screen readers.

interface IconProps {
  /** Width and height in CSS pixels (the drawing is 24×24). */
  size: number
  className?: string
}

const line = { fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round' } as const

/** "›": a row that opens something. */
export function ChevronIcon({ size, className }: IconProps) {
  return (
    <svg className={className} viewBox="0 0 24 24" width={size} height={size} aria-hidden="true">
      <path d="m9 6 6 6-6 6" {...line} strokeLinejoin="round" />
    </svg>
  )
}

/** "‹": back. */
export function BackIcon({ size, className }: IconProps) {
  return (
    <svg className={className} viewBox="0 0 24 24" width={size} height={size} aria-hidden="true">
      <path d="M15 5l-7 7 7 7" {...line} strokeLinejoin="round" />
    </svg>
  )
}

/** A magnifier: search. */
export function SearchIcon({ size, className }: IconProps) {
  return (
    <svg className={className} viewBox="0 0 24 24" width={size} height={size} aria-hidden="true">
      <circle cx="11" cy="11" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="m16 16 4 4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  )
}

/** "×": close. */
export function CloseIcon({ size, className }: IconProps) {
  return (
    <svg className={className} viewBox="0 0 24 24" width={size} height={size} aria-hidden="true">
      <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  )
}
