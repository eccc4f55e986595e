import { lazy, Suspense, useSyncExternalStore } from 'react'

// The operator console at /admin/* (issue 13). This route module is all the learner app knows of it: the console
// itself (antd, TanStack Query, its screens and CSS) is a separate chunk loaded here, in the browser only, so no
// learner page loads any of it and the server renders only this shell.
const ConsoleApp = lazy(() => import('./console-app.tsx'))

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
