import { z } from 'zod'
import { adminListQuery, BeijingDay, SearchText } from './admin-list.ts'
import { MemberRoles } from './members.ts'
import { JsonId } from './params.ts'

// What the console sends about members (request schemas; the console's forms validate with the same ones). The
// API answers 400 "<名称>不能为空 / 格式不正确" with the field in `data.field`; the messages below are what a form shows.

const memberSortKeys = ['id', 'created_at', 'last_login_at'] as const
export type MemberSortKey = (typeof memberSortKeys)[number]

const reason = (what: string) => z.string().trim().min(2, `${what}原因至少 2 个字`).max(200, `${what}原因最多 200 个字`)

/** GET /api/admin/members: q is a phone (11 digits), a member id or part of a nickname. */
export const MemberSearchQuery = adminListQuery(memberSortKeys, '-id').extend({
  q: SearchText.optional(),
  role: z.enum(MemberRoles).optional(),
  joined_from: BeijingDay.optional(),
  joined_to: BeijingDay.optional(),
})
export type MemberSearchQuery = z.output<typeof MemberSearchQuery>

/** POST /api/admin/members/:id/courses: grant a whole course, for ever or until expires_at. */
export const MemberCourseGrant = z.strictObject({
  course_id: JsonId,
  reason: reason('授权'),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
})
export type MemberCourseGrant = z.output<typeof MemberCourseGrant>

/** POST /api/admin/members/:id/entitlements/:entitlement_id/revoke. */
export const MemberCourseRevoke = z.strictObject({ reason: reason('收回') })
export type MemberCourseRevoke = z.output<typeof MemberCourseRevoke>

/** POST /api/admin/members/:id/sessions/revoke: one session, or every session when session_id is absent. */
export const MemberSessionRevoke = z.strictObject({
  session_id: JsonId.optional(),
  reason: reason('下线'),
})
export type MemberSessionRevoke = z.output<typeof MemberSessionRevoke>
