import { sql, type SQL } from 'drizzle-orm'
import { memberRoles } from '#server/db/schema/members.ts'
import type { StaffRole } from '#shared/staff/roles.ts'

/**
 * "This member holds one of these roles", as a condition another module puts in its own statement (the access
 * function's rights look-up): one probe of member_roles' primary key, no round trip of its own.
 */
export function holdsRoleCondition(memberId: number, roles: readonly StaffRole[]): SQL {
  if (roles.length === 0) return sql`false`
  return sql`exists (select 1 from ${memberRoles} r where r.member_id = ${memberId} and r.role = any(${`{${roles.join(',')}}`}::text[]))`
}
