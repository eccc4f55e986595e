import './console.css'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App as AntApp, ConfigProvider, Spin } from 'antd'
import zhCN from 'antd/locale/zh_CN'
import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react'
import { Route, Routes } from 'react-router'
import { z } from 'zod'
import type { Permission } from '#shared/staff/roles.ts'
import { ConsoleLayout } from './layout.tsx'
import { ConsoleError } from './lib/client.ts'
import { useMe } from './lib/me.ts'
import { StepUpProvider } from './lib/step-up.tsx'
import { Sections } from './nav.ts'
import NoAccess from './screens/no-access.tsx'
import SignIn from './screens/sign-in.tsx'

// The forms validate with the API's zod schemas: their built-in messages in Chinese (the console's bundle only).
z.config(z.locales.zhCN())

// Each screen is its own chunk, loaded when opened.
const Home = lazy(() => import('./screens/home.tsx'))
const Staff = lazy(() => import('./screens/staff.tsx'))
const AuditLog = lazy(() => import('./screens/audit.tsx'))
const Orders = lazy(() => import('./screens/orders.tsx'))
const Refunds = lazy(() => import('./screens/refunds.tsx'))
const ExchangeRecords = lazy(() => import('./screens/exchange-records.tsx'))
const ExchangeSkus = lazy(() => import('./screens/exchange-skus.tsx'))
const RedeemBatches = lazy(() => import('./screens/redeem-batches.tsx'))
const RedeemCodes = lazy(() => import('./screens/redeem-codes.tsx'))
const Members = lazy(() => import('./screens/members.tsx'))
const Member = lazy(() => import('./screens/member.tsx'))
const Media = lazy(() => import('./screens/media.tsx'))
const Coupons = lazy(() => import('./screens/coupons.tsx'))
const VipPlans = lazy(() => import('./screens/vip-plans.tsx'))
const Points = lazy(() => import('./screens/points.tsx'))
const ReportedComments = lazy(() => import('./screens/reported-comments.tsx'))
const Overlays = lazy(() => import('./screens/overlays.tsx'))
const ServiceSettings = lazy(() => import('./screens/service-settings.tsx'))

/** The console's screens (issue 13 §2): path, the permission that opens it, the screen. */
const screens: { path: string; permission: Permission; Screen: ComponentType }[] = [
  {
    path: 'catalogue/courses',
    permission: 'catalogue.read',
    Screen: lazy(() => import('./screens/catalogue/courses.tsx')),
  },
  {
    path: 'catalogue/courses/:id',
    permission: 'catalogue.read',
    Screen: lazy(() => import('./screens/catalogue/course-editor.tsx')),
  },
  { path: 'catalogue/live', permission: 'catalogue.read', Screen: lazy(() => import('./screens/catalogue/live.tsx')) },
  {
    path: 'catalogue/categories',
    permission: 'catalogue.read',
    Screen: lazy(() => import('./screens/catalogue/categories.tsx')),
  },
  {
    path: 'catalogue/teachers',
    permission: 'catalogue.read',
    Screen: lazy(() => import('./screens/catalogue/teachers.tsx')),
  },
  {
    path: 'catalogue/bundles',
    permission: 'catalogue.read',
    Screen: lazy(() => import('./screens/catalogue/bundles.tsx')),
  },
  {
    path: 'storefront/home',
    permission: 'catalogue.read',
    Screen: lazy(() => import('./screens/storefront/home-feed.tsx')),
  },
  {
    path: 'storefront/hot-words',
    permission: 'catalogue.read',
    Screen: lazy(() => import('./screens/storefront/hot-words.tsx')),
  },
  { path: 'members', permission: 'members.read', Screen: Members },
  { path: 'members/:id', permission: 'members.read', Screen: Member },
  { path: 'media', permission: 'catalogue.read', Screen: Media },
  { path: 'sales/coupons', permission: 'marketing.read', Screen: Coupons },
  { path: 'sales/vip-plans', permission: 'marketing.read', Screen: VipPlans },
  { path: 'sales/points', permission: 'points.adjust', Screen: Points },
  { path: 'engagement/reports', permission: 'comments.moderate', Screen: ReportedComments },
  { path: 'engagement/overlays', permission: 'marketing.edit', Screen: Overlays },
  { path: 'engagement/service', permission: 'marketing.edit', Screen: ServiceSettings },
  { path: 'marketing/redeem', permission: 'redeem.manage', Screen: RedeemBatches },
  { path: 'marketing/redeem/:id', permission: 'redeem.manage', Screen: RedeemCodes },
  { path: 'sales/exchange-records', permission: 'exchange.read', Screen: ExchangeRecords },
  { path: 'sales/exchange-skus', permission: 'exchange.read', Screen: ExchangeSkus },
]

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
          {screens.map(({ path, permission, Screen }) => (
            <Route
              key={path}
              path={path}
              element={
                <Guard permission={permission}>
                  <Screen />
                </Guard>
              }
            />
          ))}
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
