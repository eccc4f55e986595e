import type { ReactNode } from 'react'

/**
 * A 390 px wide phone frame for previews of what learners see: the learner's own components render inside it
 * (their fixed-position layers stay inside, because the frame is their containing block), inert, so they never
 * take the console's focus or clicks.
 */
export function PhonePreview({ children, label }: { children: ReactNode; label: string }) {
  return (
    <figure className="zx-console-phone" aria-label={label}>
      <div className="zx-console-phone-screen" inert>
        <div className="zx-console-phone-page" aria-hidden="true">
          <div />
          <div />
          <div />
          <div />
        </div>
        {children}
      </div>
      <figcaption>{label}</figcaption>
    </figure>
  )
}
