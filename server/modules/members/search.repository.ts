import { and, count, eq, getTableColumns, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { eqIfGiven, inPeriod } from '#server/db/rows.ts'
import { containsGrams, orderOf, type ListSort } from '#server/db/list.ts'
import { memberRoles, members } from '#server/db/schema/members.ts'
import type { MemberSortKey } from '#shared/api/admin-members.ts'
import type { StaffRole } from '#shared/staff/roles.ts'

// Members as the operators' console lists them: by phone, id or part of a nickname (members_nickname_grams_idx),
// role and joining date, in the order a column asks for.

export interface MemberFilter {
  phone?: string
  id?: number
  /** Part of the nickname. */
  nickname?: string
  role?: 'member' | 'staff' | 'admin'
  joinedFrom?: Date
  joinedBefore?: Date
}

const sortColumns = { id: members.id, created_at: members.createdAt, last_login_at: members.lastLoginAt }

/** Learners hold no staff role; `staff` is any role; `admin` the admin role (member_roles, issue 13). */
function roleCondition(role: 'member' | 'staff' | 'admin'): SQL {
  const held = sql`select 1 from ${memberRoles} r where r.member_id = ${members.id}`
  if (role === 'member') return sql`not exists (${held})`
  return role === 'admin' ? sql`exists (${held} and r.role = 'admin')` : sql`exists (${held})`
}

/** The member's staff roles, as the console shows them. */
const rolesOf = sql<
  StaffRole[]
>`coalesce((select array_agg(r.role order by r.role) from ${memberRoles} r where r.member_id = ${members.id}), '{}')`

function conditions(f: MemberFilter): SQL | undefined {
  return and(
    eqIfGiven(members.phone, f.phone),
    eqIfGiven(members.id, f.id),
    f.nickname === undefined ? undefined : containsGrams(members.nickname, f.nickname),
    f.role === undefined ? undefined : roleCondition(f.role),
    inPeriod(members.createdAt, f.joinedFrom, f.joinedBefore),
  )
}

/** One page of the members the filter matches, sorted by `sort` (ties by id, so pages never overlap). */
export async function searchMembers(
  db: DbOrTx,
  f: MemberFilter,
  sort: ListSort<MemberSortKey>,
  offset: number,
  limit: number,
) {
  return db
    .select({ ...getTableColumns(members), roles: rolesOf })
    .from(members)
    .where(conditions(f))
    .orderBy(...orderOf(sortColumns, sort, members.id, ['last_login_at']))
    .offset(offset)
    .limit(limit)
}

/** How many members the filter matches. */
export async function countMembers(db: DbOrTx, f: MemberFilter) {
  const [row] = await db.select({ n: count() }).from(members).where(conditions(f))
  return row?.n ?? 0
}

export type StaffMemberRow = typeof members.$inferSelect & { roles: StaffRole[] }

/** A member's whole row with their staff roles, or null. */
export async function findStaffMember(db: DbOrTx, id: number): Promise<StaffMemberRow | null> {
  const [row] = await db
    .select({ ...getTableColumns(members), roles: rolesOf })
    .from(members)
    .where(eq(members.id, id))
  return row ?? null
}
