/**
 * A row of tabs (role tablist) switching what the panel under it shows. The screen keeps which one is selected
 * and styles them with its own classes (`tabClass(selected)`).
 */
export function Tabs<K extends string>({
  label,
  tabs,
  current,
  onSelect,
  className,
  tabClass,
}: {
  label: string
  tabs: readonly { key: K; label: string }[]
  current: K
  onSelect: (key: K) => void
  className?: string
  tabClass: (selected: boolean) => string | undefined
}) {
  return (
    <div className={className} role="tablist" aria-label={label}>
      {tabs.map((t) => (
        <button
          key={t.key}
          type="button"
          role="tab"
          aria-selected={current === t.key}
          className={tabClass(current === t.key)}
          onClick={() => onSelect(t.key)}
        >
          {t.label}
        </button>
      ))}
    </div>
  )
}
