import type { ReactNode } from 'react'

/**
 * Cards of which one is chosen at a time, as a radio group (the VIP plans on /vip and /vipBuy): each card is a
 * button, never a link wrapping block content; `children` draws a card's content and `cardClass` its frame.
 */
export function RadioCards<T extends { id: number }>({
  items,
  chosen,
  onChoose,
  labelledBy,
  className,
  cardClass,
  children,
}: {
  items: T[]
  chosen: number | null
  onChoose: (id: number) => void
  /** The id of the element naming the group. */
  labelledBy: string
  className?: string
  cardClass: (isChosen: boolean) => string | undefined
  children: (item: T) => ReactNode
}) {
  return (
    <div className={className} role="radiogroup" aria-labelledby={labelledBy}>
      {items.map((item) => (
        <button
          key={item.id}
          type="button"
          role="radio"
          aria-checked={item.id === chosen}
          className={cardClass(item.id === chosen)}
          onClick={() => onChoose(item.id)}
        >
          {children(item)}
        </button>
      ))}
    </div>
  )
}
