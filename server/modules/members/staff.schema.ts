import { envelope } from '#server/http/envelope.ts'
import { ConsoleMe, StaffChange } from '#shared/api/staff.ts'

export { GrantByPhoneBody, SetRolesBody, StaffListQuery, StaffMember } from '#shared/api/staff.ts'

export const StaffMemberResponse = envelope(StaffChange)
export const ConsoleMeResponse = envelope(ConsoleMe)
