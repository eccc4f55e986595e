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

/** What each permission lets staff do, as the role picker describes a role (roleAbilities). */
const PermissionNames: Record<Permission, string> = {
  'catalogue.read': '查看课程目录',
  'courses.read': '查看课程内容',
  'catalogue.edit': '编辑课程',
  'media.preview': '试看全部课时',
  'marketing.read': '查看优惠券和 VIP',
  'marketing.edit': '管理优惠券、VIP 和首页',
  'members.read': '查看会员',
  'members.entitlements': '给会员授予或收回课程',
  'comments.moderate': '管理评论',
  'orders.read': '查看订单',
  'orders.export': '导出订单',
  'sales.read': '查看销售数据',
  'refunds.read': '查看退款',
  'refunds.approve': '审批退款',
  'payments.reconcile': '对账',
  'points.adjust': '调整积分',
  'staff.manage': '管理员工和角色',
  'audit.read': '查看操作日志',
  'redeem.manage': '管理兑换码',
  'exchange.read': '查看平台订单兑换',
  'exchange.manage': '管理平台订单兑换',
  'tuition.read': '查看体系课报名',
  'tuition.manage': '管理体系课',
}

/**
 * What a role may do, in words, from the role table itself (so the description cannot drift from the grants): each
 * permission it is granted, a scoped one marked 仅自己的课程. An admin may do everything: that, then what only
 * admins may do.
 */
export function roleAbilities(role: StaffRole): string[] {
  if (role === 'admin') {
    const adminsOnly = Permissions.filter((p) => (PermissionGrants[p] as readonly Grant[]).length === 0)
    return ['全部功能', ...adminsOnly.map((p) => PermissionNames[p])]
  }
  return Permissions.flatMap((p) => {
    const grants: readonly Grant[] = PermissionGrants[p]
    if (grants.includes(role)) return [PermissionNames[p]]
    return grants.some((g) => typeof g !== 'string' && g.role === role) ? [`${PermissionNames[p]}（仅自己的课程）`] : []
  })
}

/**
 * What a grant or a role change did, in a sentence the console shows and the API answers as its message:
 * 已授权 张三 为 运营 / 张三 的角色由 助教 改为 助教、运营 / 已撤销 张三 的全部角色（运营）.
 */
export function roleChangeText(name: string, before: readonly StaffRole[], after: readonly StaffRole[]): string {
  const names = (roles: readonly StaffRole[]) => roles.map((r) => StaffRoleNames[r]).join('、')
  if (before.length === 0) return after.length ? `已授权 ${name} 为 ${names(after)}` : `${name} 没有任何角色`
  if (after.length === 0) return `已撤销 ${name} 的全部角色（${names(before)}），此后不能登录后台`
  const same = before.length === after.length && before.every((r) => after.includes(r))
  if (same) return `${name} 的角色没有变化：${names(after)}`
  return `${name} 的角色由 ${names(before)} 改为 ${names(after)}`
}

/**
 * What saving a staff member changed: a new name first, then the roles (roleChangeText). A first grant names them
 * only by the new name (已授权 张三 为 运营), not by the nickname they had as a learner.
 */
export function staffChangeText(change: {
  nickname: string
  previous_nickname: string
  roles: readonly StaffRole[]
  previous_roles: readonly StaffRole[]
}): string {
  const { nickname, previous_nickname: before } = change
  const roles = roleChangeText(nickname, change.previous_roles, change.roles)
  if (before === nickname || change.previous_roles.length === 0) return roles
  const renamed = `已将 ${before} 改名为 ${nickname}`
  const same =
    change.previous_roles.length === change.roles.length && change.previous_roles.every((r) => change.roles.includes(r))
  return same ? renamed : `${renamed}；${roles}`
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

/** What the console and the members CSV call each kind (`roleKind`). */
export const RoleKindNames: Record<ReturnType<typeof roleKind>, string> = {
  member: '学员',
  staff: '员工',
  admin: '管理员',
}

/** How long a staff step-up proof (a fresh SMS code) lasts. */
export const STEP_UP_SECONDS = 300

/** The request header that carries a step-up proof. */
export const STEP_UP_HEADER = 'x-step-up'
