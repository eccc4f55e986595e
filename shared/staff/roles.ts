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

/**
 * A grant: a permission everywhere, or only on what the member owns (`own`: a teacher's own courses). Later issues
 * add permissions and scoped grants here, never a check elsewhere.
 */
type Grant = Exclude<StaffRole, 'admin'> | { role: 'teacher'; scope: 'own' }

const own = { role: 'teacher', scope: 'own' } as const

/**
 * Everything a permission names, by route group, each with the roles granted it: the one table of who may do what.
 * Admins may do everything, so they are named nowhere; a permission no role is granted is the admins' alone.
 */
const PermissionGrants = {
  'catalogue.read': ['operator', 'teacher'],
  /** The courses with their chapters and videos (a teacher: only their own); `catalogue.edit` changes them. */
  'courses.read': ['operator', own],
  'catalogue.edit': ['operator', own],
  /** Play any lesson in full to check it (the media screen's preview); decided by the access function. */
  'media.preview': ['operator'],
  'marketing.read': ['operator', 'finance'],
  'marketing.edit': ['operator'],
  'members.read': ['operator', 'finance', 'assistant'],
  'members.entitlements': ['operator'],
  'comments.moderate': ['operator', 'assistant', own],
  'orders.read': ['operator', 'finance', 'assistant'],
  'orders.export': ['finance'],
  /** The sales figures: revenue, refunds, top courses on the dashboard (operator and finance, not assistants). */
  'sales.read': ['operator', 'finance'],
  'refunds.read': ['operator', 'finance', 'assistant'],
  'refunds.approve': ['finance'],
  'payments.reconcile': ['finance'],
  'points.adjust': ['finance'],
  'staff.manage': [],
  'audit.read': [],
  'redeem.manage': ['operator'],
  'exchange.read': ['operator', 'assistant'],
  'exchange.manage': ['operator'],
  /** System courses (issue 15): leads, offers, tuition plans, contract templates, enrolments. */
  'tuition.read': ['operator', 'finance', 'assistant'],
  'tuition.manage': ['operator'],
} as const satisfies Record<string, readonly Grant[]>

export type Permission = keyof typeof PermissionGrants
export const Permissions = Object.keys(PermissionGrants) as [Permission, ...Permission[]]

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
  const granted: readonly Grant[] = PermissionGrants[permission]
  return granted.some((g) =>
    typeof g === 'string'
      ? principal.roles.includes(g)
      : principal.roles.includes(g.role) && scope !== undefined && scope.ownerMemberId === principal.memberId,
  )
}

/**
 * How far a principal's grants of a permission reach: `all` (anything), `own` (only what they own: a route that
 * knows its record's owner asks `can` with it, a list shows only theirs) or null (not at all).
 */
export function reach(principal: StaffPrincipal | null | undefined, permission: Permission): 'all' | 'own' | null {
  if (!principal) return null
  if (can(principal, permission)) return 'all'
  const granted: readonly Grant[] = PermissionGrants[permission]
  const scoped = granted.some((g) => typeof g !== 'string' && principal.roles.includes(g.role))
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
