import './console.css'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App as AntApp, ConfigProvider, Spin } from 'antd'
import zhCN from 'antd/locale/zh_CN'
import { lazy, Suspense, useState, type ReactNode } from 'react'
import { useRoutes } from 'react-router'
import { z } from 'zod'
import type { Permission } from '#shared/staff/roles.ts'
import { plainMessages } from '#shared/zod-messages.ts'
import { ConsoleLayout } from './layout.tsx'
import { ConsoleError } from './lib/client.ts'
import { useMe } from './lib/me.ts'
import { StepUpProvider } from './lib/step-up.tsx'
import { Sections } from './nav.ts'
import { loadHome, screens as screenTable } from './screens.ts'
import NoAccess from './screens/no-access.tsx'
import SignIn from './screens/sign-in.tsx'

// The forms validate with the API's zod schemas: where a schema has no message of its own, one written for people
// (「最多 40 个字」, not zod's 「数值过大：期望 string <=40 字符」); the console's bundle only.
z.config(plainMessages)

// Each screen is its own chunk, loaded when opened (or, for the screen the console opens on, as it starts).
const Home = lazy(loadHome)
const screens = screenTable.map((s) => ({ ...s, Screen: lazy(s.load) }))

/** A screen its roles open, else 无权限 naming it (the API refuses the calls as well). */
function Guard({ permission, own, children }: { permission: Permission; own: boolean; children: ReactNode }) {
  const { may, mayOwn } = useMe()
  if (own ? mayOwn(permission) : may(permission)) return children
  const name = Sections.flatMap((s) => s.items).find((i) => i.permission === permission)?.label
  return <NoAccess what={name} />
}

// Route objects with useRoutes rather than <Routes>/<Route> elements: the learner pages share React Router's chunk
// with the console, and the element form would add createRoutesFromChildren to every page's first load (issue 11 §4).
function Screens() {
  const routes = useRoutes([
    { index: true, element: <Home /> },
    ...screens.map(({ path, permission, own, Screen }) => ({
      path,
      element: (
        <Guard permission={permission} own={own}>
          <Screen />
        </Guard>
      ),
    })),
    { path: '*', element: <div className="zx-console-center">页面不存在，请从左侧菜单进入。</div> },
  ])
  return (
    <ConsoleLayout>
      <Suspense fallback={<Spin />}>{routes}</Suspense>
    </ConsoleLayout>
  )
}

function Pages() {
  return useRoutes([
    { path: 'login', element: <SignIn /> },
    { path: '*', element: <Screens /> },
  ])
}

/**
 * The operator console (issue 13), rendered in the browser only: antd with its Chinese locale, TanStack Query for
 * server state (a failed call is not retried when it is a refusal), step-up confirmations, the screens.
 */
export default function ConsoleApp() {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 10_000,
            refetchOnWindowFocus: false,
            retry: (n, e) => !(e instanceof ConsoleError && e.code >= 300 && e.code < 600 && e.code !== 0) && n < 2,
          },
        },
      }),
  )
  return (
    <ConfigProvider locale={zhCN} theme={{ token: { colorPrimary: '#1677ff', borderRadius: 6 } }}>
      <AntApp>
        <QueryClientProvider client={client}>
          <StepUpProvider>
            <Pages />
          </StepUpProvider>
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  )
}
