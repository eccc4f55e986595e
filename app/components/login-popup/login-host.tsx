import { lazy, Suspense, useEffect, useState } from 'react'
import { AppEvent, onAppEvent, type ShowLoginDetail } from '#app/lib/events.ts'

const LoginPopup = lazy(() => import('./login-popup.tsx'))

/**
 * Opens the login popup on a showLogin event (spec 4), remembering the target path and the purchaser mode.
 * The popup's code is fetched the first time it is needed.
 */
export function LoginHost() {
  const [request, setRequest] = useState<{ target: string; ke2: boolean } | null>(null)
  const [visible, setVisible] = useState(false)

  useEffect(
    () =>
      onAppEvent<ShowLoginDetail>(AppEvent.showLogin, (detail) => {
        setRequest({
          target: detail?.target ?? `${window.location.pathname}${window.location.search}`,
          ke2: detail?.ke2 ?? false,
        })
        setVisible(true)
      }),
    [],
  )

  if (!request) return null
  return (
    <Suspense fallback={null}>
      <LoginPopup
        visible={visible}
        target={request.target}
        ke2={request.ke2}
        onClose={() => setVisible(false)}
        onLoggedIn={() => setVisible(false)}
      />
    </Suspense>
  )
}
