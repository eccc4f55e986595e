import type { ComponentType } from 'react'
import { matchPath } from 'react-router'
import type { Permission } from '#shared/staff/roles.ts'

// The console's screens and how to load each: every screen is its own chunk. The console route (console.tsx) starts
// the one a page opens on while the console's own chunk is still loading; console-app.tsx renders them.

type Module = Promise<{ default: ComponentType }>

/** A loader that imports its module once: a screen started early is the same promise when it renders. */
function once(load: () => Module): () => Module {
  let module: Module | undefined
  return () => (module ??= load())
}

/** A console screen (issue 13 §2): its path under /admin, the permission that opens it, its module. */
const screen = (
  path: string,
  permission: Permission,
  load: () => Module,
  /** A grant reaching only the member's own records opens it too (a teacher's courses). */
  own?: 'own',
) => ({ path, permission, own: own === 'own', load: once(load) })

/** The dashboard, at /admin itself. */
export const loadHome = once(() => import('./screens/home.tsx'))

export const screens = [
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

/** Starts loading the screen of a console address (`/admin/sales/orders`), if it has one. */
export function preloadScreen(pathname: string) {
  const path = pathname.replace(/\/+$/, '')
  const load = path === '/admin' ? loadHome : screens.find((s) => matchPath(`/admin/${s.path}`, path) !== null)?.load
  // A failed load is the screen's to report when it renders (its lazy import fails the same way).
  load?.().catch(() => {})
}
