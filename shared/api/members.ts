import { z } from 'zod'

/** What a member's `role` says: a learner, a staff member or an admin (staff roles: shared/staff/roles.ts). */
export const MemberRoles = ['member', 'staff', 'admin'] as const

/** A member's profile as the API shows it. The phone is always masked (138****8000). */
export const MemberProfile = z.object({
  member_id: z.number().int(),
  nickname: z.string(),
  avatar: z.string().nullable().describe('An uploaded image URL (/media/uploads/...), or null for the default avatar'),
  phone: z.string().describe('Masked, e.g. 138****8000; empty when no phone is bound'),
  has_phone: z.boolean(),
  wechat_bound: z.boolean(),
  role: z.enum(MemberRoles),
  created_at: z.iso.datetime(),
})
export type MemberProfile = z.infer<typeof MemberProfile>

/** A member's VIP: running (`active`) or ended, and when it ends or ended. */
export const MemberVip = z.object({ active: z.boolean(), expires_at: z.string() })
export type MemberVip = z.infer<typeof MemberVip>

/**
 * GET /userinfo: the profile and the member's VIP (null: never had one), in one answer so /mine needs no second
 * request for it (issue 11 §4).
 */
export const UserInfo = MemberProfile.extend({
  vip: MemberVip.nullable().describe("The member's VIP, running or ended; null when they never had one"),
})
export type UserInfo = z.infer<typeof UserInfo>
