import './console.css'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App as AntApp, ConfigProvider, Spin } from 'antd'
import zhCN from 'antd/locale/zh_CN'
import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react'
import { useRoutes } from 'react-router'
import { z } from 'zod'
import type { Permission } from '#shared/staff/roles.ts'
import { plainMessages } from '#shared/zod-messages.ts'
import { ConsoleLayout } from './layout.tsx'
import { ConsoleError } from './lib/client.ts'
import { useMe } from './lib/me.ts'
import { StepUpProvider } from './lib/step-up.tsx'
import { Sections } from './nav.ts'
import NoAccess from './screens/no-access.tsx'
import SignIn from './screens/sign-in.tsx'

// The forms validate with the API's zod schemas: where a schema has no message of its own, one written for people
// (「最多 40 个字」, not zod's 「数值过大：期望 string <=40 字符」); the console's bundle only.
z.config(plainMessages)

// Each screen is its own chunk, loaded when opened.
const Home = lazy(() => import('./screens/home.tsx'))

/** A console screen (issue 13 §2): its path, the permission that opens it, its module. */
const screen = (
  path: string,
  permission: Permission,
  load: () => Promise<{ default: ComponentType }>,
  /** A grant reaching only the member's own records opens it too (a teacher's courses). */
  own?: 'own',
) => ({ path, permission, own: own === 'own', Screen: lazy(load) })

const screens = [
  screen('staff', 'staff.manage', () => import('./screens/staff.tsx')),
  screen('staff/log', 'audit.read', () => import('./screens/audit.tsx')),
  screen('sales/orders', 'orders.read', () => import('./screens/orders.tsx')),
  screen('sales/refunds', 'refunds.read', () => import('./screens/refunds.tsx')),
  screen('catalogue/courses', 'courses.read', () => import('./screens/catalogue/courses.tsx'), 'own'),
  screen('catalogue/courses/:id', 'courses.read', () => import('./screens/catalogue/course-editor.tsx'), 'own'),
  screen('catalogue/live', 'catalogue.read', () => import('./screens/catalogue/live.tsx')),
  screen('catalogue/categories', 'catalogue.read', () => import('./screens/catalogue/categories.tsx')),
  screen('catalogue/teachers', 'catalogue.read', () => import('./screens/catalogue/teachers.tsx')),
  screen('catalogue/bundles', 'catalogue.read', () => import('./screens/catalogue/bundles.tsx')),
  screen('storefront/home', 'catalogue.read', () => import('./screens/storefront/home-feed.tsx')),
  screen('storefront/hot-words', 'catalogue.read', () => import('./screens/storefront/hot-words.tsx')),
  screen('members', 'members.read', () => import('./screens/members.tsx')),
  screen('members/:id', 'members.read', () => import('./screens/member.tsx')),
  screen('media', 'courses.read', () => import('./screens/media.tsx')),
  screen('sales/coupons', 'marketing.read', () => import('./screens/coupons.tsx')),
  screen('sales/vip-plans', 'marketing.read', () => import('./screens/vip-plans.tsx')),
  screen('sales/points', 'points.adjust', () => import('./screens/points.tsx')),
  screen('engagement/comments', 'comments.moderate', () => import('./screens/comments.tsx')),
  screen('engagement/reports', 'comments.moderate', () => import('./screens/reported-comments.tsx')),
  screen('engagement/overlays', 'marketing.edit', () => import('./screens/overlays.tsx')),
  screen('engagement/popups', 'catalogue.read', () => import('./screens/popups.tsx')),
  screen('engagement/service', 'marketing.edit', () => import('./screens/service-settings.tsx')),
  screen('marketing/redeem', 'redeem.manage', () => import('./screens/redeem-batches.tsx')),
  screen('marketing/redeem/:id', 'redeem.manage', () => import('./screens/redeem-codes.tsx')),
  screen('sales/exchange-records', 'exchange.read', () => import('./screens/exchange-records.tsx')),
  screen('sales/exchange-skus', 'exchange.read', () => import('./screens/exchange-skus.tsx')),
  screen('tuition/leads', 'tuition.read', () => import('./screens/leads.tsx')),
  screen('tuition/enrolments', 'tuition.read', () => import('./screens/enrolments.tsx')),
  screen('tuition/plans', 'tuition.read', () => import('./screens/tuition-plans.tsx')),
  screen('tuition/contracts', 'tuition.read', () => import('./screens/contract-templates.tsx')),
]

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
