import { envelope } from '#server/http/envelope.ts'
import { listPage } from '#shared/api/list.ts'
import { ConsoleMe, StaffMember } from '#shared/api/staff.ts'

export { GrantByPhoneBody, SetRolesBody, StaffListQuery } from '#shared/api/staff.ts'

export const StaffListResponse = envelope(listPage(StaffMember))
export const StaffMemberResponse = envelope(StaffMember)
export const ConsoleMeResponse = envelope(ConsoleMe)
