import { useQuery } from '@tanstack/react-query'
import type { ConsoleMe } from '#shared/api/staff.ts'
import { can, type Permission } from '#shared/staff/roles.ts'
import { api } from './client.ts'

/** Who is signed in to the console (GET /api/admin/me); the navigation and the buttons follow `may`. */
export function useMe() {
  const query = useQuery({ queryKey: ['me'], queryFn: () => api.get<ConsoleMe>('/admin/me'), retry: false })
  const me = query.data
  const may = (permission: Permission) => (me ? can({ memberId: me.member_id, roles: me.roles }, permission) : false)
  return { ...query, me, may }
}
