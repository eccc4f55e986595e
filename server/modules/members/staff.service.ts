import type { Db } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { apiFields } from '#server/http/present.ts'
import { pageOf, pageWindow, parseSort } from '#server/http/admin-list.ts'
import { beijingDateTime } from '#shared/time.ts'
import { can, Permissions, StaffRoleNames, type StaffRole } from '#shared/staff/roles.ts'
import { findMemberById } from './members.repository.ts'
import { findOrCreateMemberByPhone, maskPhone, normalizePhone, renameMember } from './members.service.ts'
import { countHolders, findStaff, replaceRoles } from './staff.repository.ts'
import type { StaffChange, StaffListQuery, StaffMember } from '#shared/api/staff.ts'

type Row = Awaited<ReturnType<typeof findStaff>>['rows'][number]

function toView(r: Row): StaffMember {
  return {
    ...apiFields(r, ['nickname', 'phone', 'roles', 'lastLoginAt', 'createdAt']),
    member_id: r.id,
    granted_at: r.grantedAt ? new Date(r.grantedAt).toISOString() : null,
  }
}

/** The columns of the staff export. */
const STAFF_EXPORT_HEADER = ['成员ID', '昵称', '手机号', '角色', '授权时间', '最近登录']

/** Staff accounts and their roles (the console's Staff screen): list, export, grant and revoke. */
export function createStaffService(deps: { db: Db; now: () => Date }) {
  const { db } = deps

  async function list(query: StaffListQuery) {
    const { rows, total } = await findStaff(db, query, parseSort(query.sort), pageWindow(query))
    return pageOf(rows.map(toView), total, query)
  }

  /** The filter's rows for the CSV export (`csvRows`): one batch at `offset`, and its cells. */
  function exportRows(query: StaffListQuery) {
    const sort = parseSort(query.sort)
    return {
      header: STAFF_EXPORT_HEADER,
      read: async (offset: number, limit: number) => (await findStaff(db, query, sort, { offset, limit })).rows,
      cells: (rows: Row[]) =>
        rows.map((r) => [
          r.id,
          r.nickname,
          r.phone,
          r.roles.map((role) => StaffRoleNames[role]).join('、'),
          r.grantedAt ? beijingDateTime(new Date(r.grantedAt)) : '',
          r.lastLoginAt ? beijingDateTime(r.lastLoginAt) : '',
        ]),
    }
  }

  async function one(memberId: number) {
    const { rows } = await findStaff(db, { q: String(memberId) }, { key: 'id', desc: false }, { offset: 0, limit: 1 })
    const row = rows.find((r) => r.id === memberId)
    if (row) return toView(row)
    const member = await findMemberById(db, memberId)
    if (!member) throw new AppError(Codes.NotFound, '成员不存在')
    return toView({ ...member, grantedAt: null, lastLoginAt: null, roles: [] })
  }

  /**
   * Sets the roles (and, when given, the name staff know the member by) in one transaction; an admin cannot take
   * admin from themselves, and one admin always remains. Answers the member with the roles they held before.
   */
  async function setRoles(by: number, memberId: number, roles: StaffRole[], name?: string): Promise<StaffChange> {
    const wanted = [...new Set(roles)]
    const { roles: previousRoles, nickname: previousNickname } = await db.transaction(async (tx) => {
      const member = await findMemberById(tx, memberId)
      if (!member) throw new AppError(Codes.NotFound, '成员不存在')
      if (memberId === by && member.roles.includes('admin') && !wanted.includes('admin'))
        throw new AppError(Codes.Conflict, '不能撤销自己的管理员角色，请让另一位管理员操作')
      if (name && name !== member.nickname) await renameMember(tx, memberId, name, deps.now())
      await replaceRoles(tx, memberId, wanted, by, deps.now())
      if ((await countHolders(tx, ['admin'])) === 0) throw new AppError(Codes.Conflict, '至少要保留一位管理员')
      return member
    })
    return { ...(await one(memberId)), previous_roles: previousRoles, previous_nickname: previousNickname }
  }

  return {
    /** Staff members by role and name / phone / id: a page, or the CSV (STAFF_EXPORT_HEADER) of every match. */
    members: { page: list, csv: exportRows },
    setRoles,

    /**
     * Roles for whoever holds this phone, added to those they hold; a phone nobody holds yet becomes a member who
     * signs in with it. A name, when given, becomes their nickname (a new member would otherwise be 学员 and the
     * phone's last four digits in the console and the records).
     */
    async grantByPhone(by: number, input: { phone: string; roles: StaffRole[]; name?: string }) {
      const member = await findOrCreateMemberByPhone(db, normalizePhone(input.phone), deps.now())
      return setRoles(by, member.id, [...new Set([...member.roles, ...input.roles])], input.name || undefined)
    },

    /** Who is signed in to the console and what they may do; 403 for a member without a staff role. */
    async me(memberId: number) {
      const member = await findMemberById(db, memberId)
      if (!member || member.roles.length === 0) throw new AppError(Codes.Forbidden, '你没有后台权限')
      const principal = { memberId, roles: member.roles }
      return {
        member_id: member.id,
        nickname: member.nickname,
        phone: member.phone ? maskPhone(member.phone) : '',
        roles: member.roles,
        permissions: Permissions.filter((p) => can(principal, p)),
      }
    },
  }
}

export type StaffService = ReturnType<typeof createStaffService>
