/**
 * Staff roles and what each may do: the one role table (issue 13). The server checks every `/api/admin/` call
 * with `can` (server/http/auth.ts), the console hides what `can` refuses (app/routes/admin). A member may hold
 * several roles; a member without any is a learner only.
 */
export const StaffRoles = ['operator', 'finance', 'teacher', 'assistant', 'admin'] as const
export type StaffRole = (typeof StaffRoles)[number]

export const StaffRoleNames: Record<StaffRole, string> = {
  operator: '运营',
  finance: '财务',
  teacher: '讲师',
  assistant: '助教',
  admin: '管理员',
}

/** Everything a permission names, by route group. */
export const Permissions = [
  'catalogue.read',
  /** The courses with their chapters and videos (a teacher: only their own); `catalogue.edit` changes them. */
  'courses.read',
  'catalogue.edit',
  /** Play any lesson in full to check it (the media screen's preview); decided by the access function. */
  'media.preview',
  'marketing.read',
  'marketing.edit',
  'members.read',
  'members.entitlements',
  'comments.moderate',
  'orders.read',
  'orders.export',
  /** The sales figures: revenue, refunds, top courses on the dashboard (operator and finance, not assistants). */
  'sales.read',
  'refunds.read',
  'refunds.approve',
  'payments.reconcile',
  'points.adjust',
  'staff.manage',
  'audit.read',
  'redeem.manage',
  'exchange.read',
  'exchange.manage',
] as const
export type Permission = (typeof Permissions)[number]

/**
 * A grant: a permission everywhere, or only on what the member owns (`own`: a teacher's own courses). Later issues
 * add permissions and scoped grants here, never a check elsewhere.
 */
type Grant = Permission | { permission: Permission; scope: 'own' }

const grants: Record<Exclude<StaffRole, 'admin'>, readonly Grant[]> = {
  operator: [
    'catalogue.read',
    'courses.read',
    'catalogue.edit',
    'media.preview',
    'marketing.read',
    'marketing.edit',
    'members.read',
    'members.entitlements',
    'comments.moderate',
    'orders.read',
    'sales.read',
    'refunds.read',
    'redeem.manage',
    'exchange.read',
    'exchange.manage',
  ],
  finance: [
    'marketing.read',
    'orders.read',
    'orders.export',
    'sales.read',
    'refunds.read',
    'refunds.approve',
    'payments.reconcile',
    'points.adjust',
    'members.read',
  ],
  teacher: [
    'catalogue.read',
    { permission: 'courses.read', scope: 'own' },
    { permission: 'catalogue.edit', scope: 'own' },
    { permission: 'comments.moderate', scope: 'own' },
  ],
  assistant: ['members.read', 'comments.moderate', 'orders.read', 'refunds.read', 'exchange.read'],
}

/** Who asks: the member and the roles they hold. */
export interface StaffPrincipal {
  memberId: number
  roles: readonly StaffRole[]
}

/** What an action is on, for scoped grants: the member who owns it (a course's teacher). */
export interface Scope {
  ownerMemberId?: number | null
}

/**
 * May this principal do this? Admins may do everything. A scoped grant (`own`) counts only when the caller passes
 * the scope and it is the member's own (a service that knows the course's teacher asks with it); a route gate,
 * which has no scope, does not let a scoped grant through.
 */
export function can(principal: StaffPrincipal | null | undefined, permission: Permission, scope?: Scope): boolean {
  if (!principal) return false
  if (principal.roles.includes('admin')) return true
  return principal.roles.some((role) =>
    role === 'admin'
      ? true
      : grants[role].some((g) =>
          typeof g === 'string'
            ? g === permission
            : g.permission === permission && scope !== undefined && scope.ownerMemberId === principal.memberId,
        ),
  )
}

/**
 * How far a principal's grants of a permission reach: `all` (anything), `own` (only what they own: a route that
 * knows its record's owner asks `can` with it, a list shows only theirs) or null (not at all).
 */
export function reach(principal: StaffPrincipal | null | undefined, permission: Permission): 'all' | 'own' | null {
  if (!principal) return null
  if (can(principal, permission)) return 'all'
  const scoped = principal.roles.some(
    (role) => role !== 'admin' && grants[role].some((g) => typeof g !== 'string' && g.permission === permission),
  )
  return scoped ? 'own' : null
}

/** The coarse kind the profile shows and the older `auth: 'staff' | 'admin'` routes check. */
export function roleKind(roles: readonly StaffRole[]): 'member' | 'staff' | 'admin' {
  return roles.includes('admin') ? 'admin' : roles.length ? 'staff' : 'member'
}

/** How long a staff step-up proof (a fresh SMS code) lasts. */
export const STEP_UP_SECONDS = 300

/** The request header that carries a step-up proof. */
export const STEP_UP_HEADER = 'x-step-up'
