import { useEffect, useState } from 'react'
import { AppEvent, onAppEvent } from '#app/lib/events.ts'

/**
 * Whether a `showConsult` event asked for the consult button (until `hideConsult`). Heard from the first render on,
 * in the first-load code: the button itself (./shell-hosts.tsx) loads after hydration and would miss an early event.
 */
export function useConsult(): boolean {
  const [consult, setConsult] = useState(false)
  useEffect(() => {
    const offShow = onAppEvent(AppEvent.showConsult, () => setConsult(true))
    const offHide = onAppEvent(AppEvent.hideConsult, () => setConsult(false))
    return () => {
      offShow()
      offHide()
    }
  }, [])
  return consult
}
