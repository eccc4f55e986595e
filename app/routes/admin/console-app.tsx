import './console.css'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App as AntApp, ConfigProvider, Spin } from 'antd'
import zhCN from 'antd/locale/zh_CN'
import { lazy, Suspense, useState, type ReactNode } from 'react'
import { Route, Routes } from 'react-router'
import type { Permission } from '#shared/staff/roles.ts'
import { ConsoleLayout } from './layout.tsx'
import { ConsoleError } from './lib/client.ts'
import { useMe } from './lib/me.ts'
import { StepUpProvider } from './lib/step-up.tsx'
import { Sections } from './nav.ts'
import NoAccess from './screens/no-access.tsx'
import SignIn from './screens/sign-in.tsx'

// Each screen is its own chunk, loaded when opened.
const Home = lazy(() => import('./screens/home.tsx'))
const Staff = lazy(() => import('./screens/staff.tsx'))
const AuditLog = lazy(() => import('./screens/audit.tsx'))
const Orders = lazy(() => import('./screens/orders.tsx'))
const Refunds = lazy(() => import('./screens/refunds.tsx'))
const ExchangeRecords = lazy(() => import('./screens/exchange-records.tsx'))
const ExchangeSkus = lazy(() => import('./screens/exchange-skus.tsx'))

/** A screen its roles open, else 无权限 naming it (the API refuses the calls as well). */
function Guard({ permission, children }: { permission: Permission; children: ReactNode }) {
  const { may } = useMe()
  if (may(permission)) return children
  const name = Sections.flatMap((s) => s.items).find((i) => i.permission === permission)?.label
  return <NoAccess what={name} />
}

function Screens() {
  return (
    <ConsoleLayout>
      <Suspense fallback={<Spin />}>
        <Routes>
          <Route index element={<Home />} />
          <Route
            path="staff"
            element={
              <Guard permission="staff.manage">
                <Staff />
              </Guard>
            }
          />
          <Route
            path="staff/log"
            element={
              <Guard permission="audit.read">
                <AuditLog />
              </Guard>
            }
          />
          <Route
            path="sales/orders"
            element={
              <Guard permission="orders.read">
                <Orders />
              </Guard>
            }
          />
          <Route
            path="sales/refunds"
            element={
              <Guard permission="refunds.read">
                <Refunds />
              </Guard>
            }
          />
          <Route
            path="sales/exchange-records"
            element={
              <Guard permission="exchange.read">
                <ExchangeRecords />
              </Guard>
            }
          />
          <Route
            path="sales/exchange-skus"
            element={
              <Guard permission="exchange.read">
                <ExchangeSkus />
              </Guard>
            }
          />
          <Route path="*" element={<div className="zx-console-center">页面不存在，请从左侧菜单进入。</div>} />
        </Routes>
      </Suspense>
    </ConsoleLayout>
  )
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
            <Routes>
              <Route path="login" element={<SignIn />} />
              <Route path="*" element={<Screens />} />
            </Routes>
          </StepUpProvider>
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  )
}
