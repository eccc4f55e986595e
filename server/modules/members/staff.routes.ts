import { listRoute } from '#server/http/admin-list.ts'
import { adminPlugin, apiPlugin } from '#server/http/route.ts'
import { IdParams } from '#shared/api/params.ts'
import { staffChangeText } from '#shared/staff/roles.ts'
import {
  ConsoleMeResponse,
  GrantByPhoneBody,
  SetRolesBody,
  StaffListQuery,
  StaffMember,
  StaffMemberResponse,
} from './staff.schema.ts'
import type { StaffService } from './staff.service.ts'

/** Who is signed in to the console (any staff role): the console's navigation follows `permissions`. */
export const consoleMeRoutes = apiPlugin(
  { tags: ['admin'], auth: 'staff' },
  (r, { staff }: { staff: StaffService }) => {
    r.get(
      '/admin/me',
      { summary: 'The signed-in staff member, their roles and permissions', response: ConsoleMeResponse },
      async (_request, memberId) => staff.me(memberId),
    )
  },
)

/** Staff accounts and roles (admins: `staff.manage`); changing roles and exporting need a step-up proof. */
export const adminStaffRoutes = adminPlugin('staff.manage', (r, { staff }: { staff: StaffService }) => {
  listRoute(r, '/admin/staff', {
    summary: 'Staff members by role and name / phone / id (paged, sorted)',
    querystring: StaffListQuery,
    row: StaffMember,
    list: staff.members,
  })

  r.post(
    '/admin/staff',
    {
      stepUp: true,
      summary: 'Grant roles to the member with this phone (a new member if nobody has it); needs a step-up proof',
      body: GrantByPhoneBody,
      response: StaffMemberResponse,
      msg: staffChangeText,
    },
    async ({ body }, staffId) => staff.grantByPhone(staffId, body),
  )

  r.put(
    '/admin/staff/:id/roles',
    {
      stepUp: true,
      summary:
        "Set a member's roles (an empty list revokes them all) and, when given, their name; needs a step-up proof",
      description: '409 when an admin would remove their own admin role or leave no admin.',
      params: IdParams,
      body: SetRolesBody,
      response: StaffMemberResponse,
      msg: staffChangeText,
    },
    async ({ params, body }, staffId) => staff.setRoles(staffId, params.id, body.roles, body.name || undefined),
  )
})
