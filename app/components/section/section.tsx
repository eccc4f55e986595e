import type { ReactNode } from 'react'

/**
 * A titled part of a screen: the section is labelled by its h2 (`id` joins them), so screen readers list it by
 * that title. It looks the way the screen's own classes say.
 */
export function Section({
  id,
  title,
  className,
  titleClassName,
  children,
}: {
  id: string
  title: ReactNode
  className?: string
  titleClassName?: string
  children: ReactNode
}) {
  return (
    <section className={className} aria-labelledby={id}>
      <h2 id={id} className={titleClassName}>
        {title}
      </h2>
      {children}
    </section>
  )
}
