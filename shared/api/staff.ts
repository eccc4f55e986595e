import { z } from 'zod'
import { Permissions, StaffRoles } from '#shared/staff/roles.ts'
import { adminListQuery, SearchText } from './admin-list.ts'

// Staff accounts and roles: the API's schemas, which the console's forms validate with too.

const Role = z.enum(StaffRoles, { error: '角色无效' })

/** GET /api/admin/staff: staff by role and name / phone / id. */
export const StaffListQuery = adminListQuery(['id', 'last_login_at', 'granted_at'], '-granted_at').extend({
  q: SearchText.optional(),
  role: Role.optional(),
})
export type StaffListQuery = z.output<typeof StaffListQuery>

export const StaffMember = z.object({
  member_id: z.number().int(),
  nickname: z.string(),
  phone: z.string().nullable(),
  roles: z.array(Role),
  granted_at: z.string().nullable(),
  last_login_at: z.string().nullable(),
  created_at: z.string(),
})
export type StaffMember = z.infer<typeof StaffMember>

/** POST /api/admin/staff: roles for the member with this phone (created if nobody has it yet). */
export const GrantByPhoneBody = z.object({
  phone: z
    .string({ error: '请输入 11 位手机号' })
    .trim()
    .regex(/^1\d{10}$/, { error: '请输入 11 位手机号' }),
  roles: z.array(Role, { error: '至少选择一个角色' }).min(1, { error: '至少选择一个角色' }).max(StaffRoles.length),
  /** The staff member's name, shown in the console and the records (their nickname); empty keeps the nickname. */
  name: z
    .string()
    .trim()
    .max(20, { error: '姓名最多 20 个字' })
    .regex(/^[^\p{Cc}\p{Zl}\p{Zp}\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]*$/u, {
      error: '姓名不能包含控制字符',
    })
    .optional(),
})

/** PUT /api/admin/staff/:id/roles: the roles (an empty list revokes them all) and, when given, a new name. */
export const SetRolesBody = z.object({
  roles: z.array(Role).max(StaffRoles.length),
  name: GrantByPhoneBody.shape.name,
})

/**
 * POST /api/admin/staff and PUT /api/admin/staff/:id/roles: the staff member now, and the roles and name held
 * before.
 */
export const StaffChange = StaffMember.extend({ previous_roles: z.array(Role), previous_nickname: z.string() })
export type StaffChange = z.infer<typeof StaffChange>

/** GET /api/admin/me: who is signed in to the console and what they may do. */
export const ConsoleMe = z.object({
  member_id: z.number().int(),
  nickname: z.string(),
  phone: z.string(),
  roles: z.array(Role),
  permissions: z.array(z.enum(Permissions)),
})
export type ConsoleMe = z.infer<typeof ConsoleMe>
