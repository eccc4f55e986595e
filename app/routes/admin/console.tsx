import { lazy, Suspense, useSyncExternalStore } from 'react'
import { askMeEarly } from './lib/me-early.ts'
import { getToken } from './lib/token.ts'
import { preloadScreen } from './screens.ts'

// The operator console at /admin/* (issue 13). This route module is all the learner app knows of it: the console
// itself (antd, TanStack Query, its screens and CSS) is a separate chunk loaded here, in the browser only, so no
// learner page loads any of it and the server renders only this shell.
const loadConsole = () => import('./console-app.tsx')

// In the browser, as soon as this module runs (before hydration): the console's chunk, the chunk of the screen the
// address opens and who is signed in are asked for together. Each used to wait for the one before: hydration, then
// the console, then /api/admin/me once it had run, then the screen once the layout had drawn. Across a line with
// round trips, or on a slower CPU, first loads are 8–19 % sooner (docs/performance.md, "The console's first load").
// A client-side navigation here from another page only starts the console's chunk.
const starting =
  typeof document !== 'undefined' && location.pathname.startsWith('/admin') ? start(location.pathname) : null

function start(pathname: string) {
  // Signed out, the console shows its sign-in page whatever the address: nothing to ask for yet.
  if (getToken() && pathname.replace(/\/+$/, '') !== '/admin/login') {
    askMeEarly()
    preloadScreen(pathname)
  }
  const chunk = loadConsole()
  // Handled here too: a failed chunk is the lazy component's to report when it renders, not an unhandled rejection.
  chunk.catch(() => {})
  return chunk
}

const ConsoleApp = lazy(() => starting ?? loadConsole())

export function meta() {
  return [{ title: '自学 · 运营后台' }, { name: 'robots', content: 'noindex' }]
}

const noSubscription = () => () => {}

export default function Console() {
  // false while rendering on the server and hydrating, true in the browser afterwards.
  const browser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  )
  return (
    <div className="zx-console" style={{ minHeight: '100vh' }}>
      {browser ? (
        <Suspense fallback={<p style={{ padding: 24 }}>运营后台加载中…</p>}>
          <ConsoleApp />
        </Suspense>
      ) : (
        <p style={{ padding: 24 }}>运营后台加载中…</p>
      )}
    </div>
  )
}
