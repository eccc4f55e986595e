import { listRoute } from '#server/http/admin-list.ts'
import { adminPlugin } from '#server/http/route.ts'
import {
  MemberCourseGrant,
  MemberCourseRevoke,
  MemberSearchQuery,
  MemberSessionRevoke,
} from '#shared/api/admin-members.ts'
import { IdParams } from '#shared/api/params.ts'
import {
  ListedMember,
  MemberEntitlementParams,
  MemberEntitlementResponse,
  MemberEntitlementsResponse,
  MemberPageResponse,
  MemberSessionsResponse,
} from './admin-members.schema.ts'
import type { MemberAdmin } from './member-admin.ts'

/**
 * Members in the operators' console (under /api/admin/members). A member's orders, points and comments are the
 * lists of their own modules filtered by member: GET /api/admin/orders?q=<id>, /api/admin/points/ledger?member_id=<id>,
 * /api/admin/comments?member_id=<id>.
 */
export const adminMemberRoutes = adminPlugin(
  { read: 'members.read', write: 'members.entitlements' },
  (r, { members }: { members: MemberAdmin }) => {
    // Reading: operator, finance, assistant (members.read); the CSV export (phones) after a fresh SMS code.
    listRoute(r, '/admin/members', {
      summary: 'Members by phone, id or part of a nickname, role and joining date (paged, sorted)',
      querystring: MemberSearchQuery,
      row: ListedMember,
      list: members.search,
    })
    r.get(
      '/admin/members/:id',
      {
        summary: "A member's page: profile, VIP, points balance, sign-in sessions",
        params: IdParams,
        response: MemberPageResponse,
      },
      async (request) => members.member(request.params.id),
    )
    r.get(
      '/admin/members/:id/entitlements',
      {
        summary: "A member's entitlements, newest first, each with why it exists (purchase, VIP, admin, …)",
        params: IdParams,
        response: MemberEntitlementsResponse,
      },
      async (request) => members.entitlements(request.params.id),
    )

    // Changing: operator (members.entitlements: granting and revoking courses, signing a member out).
    r.post(
      '/admin/members/:id/courses',
      {
        summary: 'Grant the member a whole course, for ever or until expires_at, with a reason',
        params: IdParams,
        body: MemberCourseGrant,
        response: MemberEntitlementResponse,
      },
      async (request, staffId) => members.grant(staffId, request.params.id, request.body),
    )
    r.post(
      '/admin/members/:id/entitlements/:entitlement_id/revoke',
      {
        summary: "Revoke one of the member's entitlements at once, with a reason",
        params: MemberEntitlementParams,
        body: MemberCourseRevoke,
        response: MemberEntitlementResponse,
      },
      async (request, staffId) =>
        members.revoke(staffId, request.params.id, request.params.entitlement_id, request.body),
    )
    r.post(
      '/admin/members/:id/sessions/revoke',
      {
        summary: 'Sign the member out: one session (session_id) or every open one, with a reason',
        params: IdParams,
        body: MemberSessionRevoke,
        response: MemberSessionsResponse,
      },
      async (request) => members.revokeSessions(request.params.id, request.body),
    )
  },
)
