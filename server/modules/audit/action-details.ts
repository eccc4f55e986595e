// What an audited action was about, as the staff action log shows it: the fields that matter (the member and
// phone, the course, points and amounts, roles, the reason) read from what the operator sent, instead of its JSON.
// Members and courses are named from one lookup per page (referencedIds, then actionDetails with the names).

import { formatYuan } from '#shared/money.ts'
import { StaffRoleNames, StaffRoles, type StaffRole } from '#shared/staff/roles.ts'

/** What a recorded action holds: its route as registered and what was sent. */
export interface SentAction {
  route: string
  params: Record<string, unknown> | null
  body: unknown
}

/** The names a page of actions refers to, looked up once. */
export interface Names {
  members: Map<number, { nickname: string; phone: string | null }>
  courses: Map<number, { title: string }>
  /** Refunds by number: whose, and how much was asked for. */
  refunds: Map<string, { memberId: number; amountFen: number }>
}

const fieldsOf = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}

const idOf = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null)

/** A route whose `:id` is a member (their courses, sessions, roles). */
const memberRoute = (route: string) => /^\/api\/admin\/(members|staff)\/:id\b/.test(route)
const courseRoute = (route: string) => route.startsWith('/api/admin/courses/:id')
const commentRoute = (route: string) => route.startsWith('/api/comment/') || route.startsWith('/api/admin/comments/')

function memberIdOf(a: SentAction): number | null {
  return (memberRoute(a.route) ? idOf(a.params?.id) : null) ?? idOf(fieldsOf(a.body).member_id)
}

function courseIdsOf(a: SentAction): number[] {
  const body = fieldsOf(a.body)
  const ids = [
    courseRoute(a.route) ? idOf(a.params?.id) : null,
    idOf(body.course_id),
    ...(Array.isArray(body.course_ids) ? body.course_ids.map(idOf) : []),
  ]
  return [...new Set(ids.filter((id): id is number => id !== null))]
}

const refundNoOf = (a: SentAction) => text(a.params?.refund_no)

/** The members, courses and refunds these actions name, for the one lookup of a page (a refund's member after). */
export function referencedIds(actions: SentAction[]) {
  return {
    members: actions.flatMap((a) => memberIdOf(a) ?? []),
    courses: actions.flatMap(courseIdsOf),
    refunds: actions.flatMap((a) => refundNoOf(a) ?? []),
  }
}

const MAX_TEXT = 60
const clip = (s: string) => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s)

/**
 * The action's details in a line an operator reads: "学员 张三（13800001234） · 积分 +50 · 原因：活动补发". Empty
 * when nothing sent is worth naming.
 */
export function actionDetails(a: SentAction, names: Names): string {
  const body = fieldsOf(a.body)
  const parts: string[] = []
  if (body.truncated === true && Array.isArray(body.keys)) {
    return `内容较大，只记录了字段：${body.keys.join('、')}`
  }

  const refundNo = refundNoOf(a)
  const refund = refundNo ? names.refunds.get(refundNo) : undefined
  const memberId = memberIdOf(a) ?? refund?.memberId ?? null
  if (memberId !== null) {
    const m = names.members.get(memberId)
    const who = a.route.startsWith('/api/admin/staff/') ? '员工' : '会员'
    parts.push(m ? `${who} ${m.nickname}（${m.phone ?? `ID ${memberId}`}）` : `${who} ID ${memberId}`)
  }
  const phone = text(body.phone)
  if (phone) parts.push(`手机号 ${phone}`)

  const courses = courseIdsOf(a).map((id) => `《${names.courses.get(id)?.title ?? `课程 ${id}`}》`)
  if (courses.length)
    parts.push(`课程 ${courses.slice(0, 3).join('')}${courses.length > 3 ? ` 等 ${courses.length} 门` : ''}`)
  const title = text(body.title) ?? text(body.name)
  if (title) parts.push(a.route === '/api/admin/courses' ? `课程《${clip(title)}》` : `「${clip(title)}」`)

  if (Array.isArray(body.roles)) {
    const roles = body.roles.filter((r): r is StaffRole => StaffRoles.includes(r as StaffRole))
    parts.push(`角色 ${roles.length ? roles.map((r) => StaffRoleNames[r]).join('、') : '无'}`)
  }
  if (typeof body.delta === 'number') parts.push(`积分 ${body.delta > 0 ? '+' : ''}${body.delta}`)
  if (typeof body.amount_fen === 'number') parts.push(`金额 ¥${formatYuan(body.amount_fen)}`)
  if (typeof body.price_fen === 'number') parts.push(`价格 ¥${formatYuan(body.price_fen)}`)
  if (typeof body.days === 'number') parts.push(`${body.days} 天`)
  if (typeof body.vip_days === 'number') parts.push(`VIP ${body.vip_days} 天`)
  if (typeof body.count === 'number') parts.push(`${body.count} 个`)

  if (refundNo) {
    parts.push(`退款单 ${refundNo}`)
    // What was asked for, unless the approval names its own (partial) amount above.
    if (refund && typeof body.amount_fen !== 'number') parts.push(`申请 ¥${formatYuan(refund.amountFen)}`)
  }
  if (commentRoute(a.route)) {
    const comment = idOf(body.id) ?? idOf(a.params?.id)
    if (comment !== null) parts.push(`评论 #${comment}`)
  }

  const reason = text(body.reason)
  if (reason) parts.push(`原因：${clip(reason)}`)
  const note = text(body.note)
  if (note) parts.push(`${a.route === '/api/admin/points/adjust' ? '原因' : '备注'}：${clip(note)}`)

  // A record the lookups do not name (a VIP plan, a coupon template): its number first ("编号 12 · 价格 ¥9.9").
  const id = idOf(a.params?.id)
  if (id !== null && !memberRoute(a.route) && !courseRoute(a.route) && !commentRoute(a.route)) {
    parts.unshift(`编号 ${id}`)
  }
  return parts.join(' · ')
}
