import type { ReactNode } from 'react'

interface Group<T, K> {
  items: readonly T[]
  chosen: K | null
  onChoose: (key: K) => void
  className?: string
}

/**
 * Buttons of which one is chosen at a time, grouped the way ARIA names them: a tablist of tabs (`aria-selected`) or
 * a radiogroup of cards (`aria-checked`). Each is a button, never a link wrapping block content.
 */
function Choices<T, K extends string | number>(
  props: Group<T, K> & {
    role: 'tab' | 'radio'
    /** What names the group: its own words or the id of the element that says them. */
    name: { 'aria-label': string } | { 'aria-labelledby': string }
    keyOf: (item: T) => K
    itemClass: (isChosen: boolean) => string | undefined
    children: (item: T) => ReactNode
  },
) {
  const { role, chosen } = props
  const state = role === 'tab' ? 'aria-selected' : 'aria-checked'
  return (
    <div className={props.className} role={role === 'tab' ? 'tablist' : 'radiogroup'} {...props.name}>
      {props.items.map((item) => {
        const key = props.keyOf(item)
        return (
          <button
            key={key}
            type="button"
            role={role}
            {...{ [state]: key === chosen }}
            className={props.itemClass(key === chosen)}
            onClick={() => props.onChoose(key)}
          >
            {props.children(item)}
          </button>
        )
      })}
    </div>
  )
}

/**
 * A row of tabs switching what the panel under it shows. The screen keeps which one is selected and styles the row
 * (`className`); each tab is a bare button, the selected one `[aria-selected='true']`.
 */
export function Tabs<K extends string>({ label, ...group }: Group<{ key: K; label: string }, K> & { label: string }) {
  return (
    <Choices
      role="tab"
      name={{ 'aria-label': label }}
      keyOf={(t) => t.key}
      itemClass={() => 'zx-bareButton'}
      {...group}
    >
      {(t) => t.label}
    </Choices>
  )
}

/**
 * Cards of which one is chosen at a time, as a radio group (the VIP plans on /vip and /vipBuy): `children` draws a
 * card's content and `itemClass` its frame.
 */
export function RadioCards<T extends { id: number }>({
  labelledBy,
  ...group
}: Group<T, number> & {
  /** The id of the element naming the group. */
  labelledBy: string
  itemClass: (isChosen: boolean) => string | undefined
  children: (item: T) => ReactNode
}) {
  return <Choices role="radio" name={{ 'aria-labelledby': labelledBy }} keyOf={(c) => c.id} {...group} />
}
