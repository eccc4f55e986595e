import { lazy, Suspense, useEffect, useState } from 'react'

// The operator console at /admin/* (issue 13). This route module is all the learner app knows of it: the console
// itself (antd, TanStack Query, its screens and CSS) is a separate chunk loaded here, in the browser only, so no
// learner page loads any of it and the server renders only this shell.
const ConsoleApp = lazy(() => import('./console-app.tsx'))

export function meta() {
  return [{ title: '自学 · 运营后台' }, { name: 'robots', content: 'noindex' }]
}

export default function Console() {
  const [browser, setBrowser] = useState(false)
  useEffect(() => setBrowser(true), [])
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
