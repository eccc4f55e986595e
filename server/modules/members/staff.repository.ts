import { and, count, eq, exists, inArray, notInArray, or, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { containsGrams, containsText, orderOf, type ListSort } from '#server/db/list.ts'
import { memberRoles, members } from '#server/db/schema/members.ts'
import type { StaffRole } from '#shared/staff/roles.ts'

export interface StaffFilter {
  q?: string
  role?: StaffRole
}
type StaffSortKey = 'id' | 'last_login_at' | 'granted_at'

const rolesOf = sql<
  StaffRole[]
>`coalesce((select array_agg(r.role order by r.role) from ${memberRoles} r where r.member_id = ${members.id}), '{}')`
const grantedAt = sql<Date | null>`(select max(r.granted_at) from ${memberRoles} r where r.member_id = ${members.id})`

function whereOf(f: StaffFilter): SQL | undefined {
  const held = db_exists(f.role)
  const q = f.q?.trim()
  const text = q
    ? or(
        containsGrams(members.nickname, q),
        /^\d{3,11}$/.test(q) ? containsText(members.phone, q) : undefined,
        /^\d{1,9}$/.test(q) ? eq(members.id, Number(q)) : undefined,
      )
    : undefined
  return and(held, text)
}

/** Members holding a staff role (this one, or any). */
function db_exists(role: StaffRole | undefined) {
  return exists(
    sql`(select 1 from ${memberRoles} r where r.member_id = ${members.id}${role ? sql` and r.role = ${role}` : sql``})`,
  )
}

/** Staff members by role and name / phone / id, one page of them and how many match. */
export async function findStaff(
  db: DbOrTx,
  f: StaffFilter,
  sort: ListSort<StaffSortKey>,
  window: { offset: number; limit: number },
) {
  const where = whereOf(f)
  const sortable = { id: members.id, last_login_at: members.lastLoginAt, granted_at: grantedAt }
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: members.id,
        nickname: members.nickname,
        phone: members.phone,
        roles: rolesOf,
        grantedAt,
        lastLoginAt: members.lastLoginAt,
        createdAt: members.createdAt,
      })
      .from(members)
      .where(where)
      .orderBy(...orderOf(sortable, sort, members.id, ['last_login_at']))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ n: count() }).from(members).where(where),
  ])
  return { rows, total: total?.n ?? 0 }
}

/** Makes these the member's roles: removes the others, adds the missing ones (granted by `by`, now). */
export async function replaceRoles(db: DbOrTx, memberId: number, roles: StaffRole[], by: number, now: Date) {
  await db
    .delete(memberRoles)
    .where(and(eq(memberRoles.memberId, memberId), roles.length ? notInArray(memberRoles.role, roles) : undefined))
  if (roles.length)
    await db
      .insert(memberRoles)
      .values(roles.map((role) => ({ memberId, role, grantedBy: by, grantedAt: now })))
      .onConflictDoNothing()
}

/** How many members hold any of these roles. */
export async function countHolders(db: DbOrTx, roles: StaffRole[]) {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${memberRoles.memberId})::int` })
    .from(memberRoles)
    .where(inArray(memberRoles.role, roles))
  return row?.n ?? 0
}
