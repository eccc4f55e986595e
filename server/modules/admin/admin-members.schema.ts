import { z } from 'zod'
import { envelope } from '#server/http/envelope.ts'
import { MemberRoles } from '#shared/api/members.ts'
import { IdParams, PathId } from '#shared/api/params.ts'
import { Entitlement } from './admin.schema.ts'

// Answers of the members part of the operators' console (requests: shared/api/admin-members.ts).

export const MemberEntitlementParams = IdParams.extend({ entitlement_id: PathId })

export const ListedMember = z.object({
  id: z.number().int(),
  phone: z.string().nullable(),
  nickname: z.string(),
  avatar: z.string().nullable(),
  role: z.enum(MemberRoles),
  wechat_bound: z.boolean(),
  is_purchaser: z.boolean(),
  created_at: z.string(),
  last_login_at: z.string().nullable(),
  vip_active: z.boolean().describe('VIP now'),
})

const Session = z.object({
  id: z.number().int(),
  platform: z.number().int().describe('1 desktop, 2 mobile browser, 3 WeChat'),
  created_at: z.string(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
  state: z.enum(['active', 'expired', 'revoked']),
})

export const MemberPageResponse = envelope(
  ListedMember.extend({
    vip_expires_at: z.string().nullable(),
    points_balance: z.number().int(),
    sessions: z.array(Session),
  }),
)

const ExplainedEntitlement = Entitlement.extend({
  why: z.string().describe('Why it exists, as the console says it'),
  order_no: z.string().nullable().describe('The order it was bought with (purchase, bundle, points exchange)'),
  granted_by: z
    .object({ member_id: z.number().int(), nickname: z.string() })
    .nullable()
    .describe('The staff member who granted it (admin)'),
  reason: z.string().nullable().describe("The grant's reason (admin)"),
})

export const MemberEntitlementsResponse = envelope(
  z.object({ list: z.array(ExplainedEntitlement.extend({ course_title: z.string() })) }),
)
export const MemberEntitlementResponse = envelope(ExplainedEntitlement)
export const MemberSessionsResponse = envelope(z.object({ revoked: z.number().int(), sessions: z.array(Session) }))

export type ListedMember = z.infer<typeof ListedMember>
export type MemberPage = z.infer<typeof MemberPageResponse>['data']
export type MemberEntitlement = z.infer<typeof MemberEntitlementsResponse>['data']['list'][number]
export type MemberSession = MemberPage['sessions'][number]
