import { useQuery } from '@tanstack/react-query'
import type { ConsoleMe } from '#shared/api/staff.ts'
import { can, reach, type Permission } from '#shared/staff/roles.ts'
import { api } from './client.ts'
import { takeEarlyMe } from './me-early.ts'

/** Who is signed in to the console (GET /api/admin/me); the navigation and the buttons follow `may`. */
export function useMe() {
  const query = useQuery({
    queryKey: ['me'],
    queryFn: () => takeEarlyMe() ?? api.get<ConsoleMe>('/admin/me'),
    retry: false,
  })
  const me = query.data
  const principal = me && { memberId: me.member_id, roles: me.roles }
  const may = (permission: Permission) => can(principal, permission)
  /** Holds it at all, maybe only for their own records (a teacher's courses: the API shows and takes only those). */
  const mayOwn = (permission: Permission) => reach(principal, permission) !== null
  return { ...query, me, may, mayOwn }
}
