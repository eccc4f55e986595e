import { envelope } from '#server/http/envelope.ts'
import { ConsoleMe, StaffMember } from '#shared/api/staff.ts'

export { GrantByPhoneBody, SetRolesBody, StaffListQuery, StaffMember } from '#shared/api/staff.ts'

export const StaffMemberResponse = envelope(StaffMember)
export const ConsoleMeResponse = envelope(ConsoleMe)
