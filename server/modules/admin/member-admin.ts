import type { Db } from '#server/db/database.ts'
import { pageOf, pageWindow, parseSort, type Sort } from '#server/http/admin-list.ts'
import { AppError } from '#server/http/app-error.ts'
import type { BusinessEvents } from '#server/http/business-events.ts'
import { Codes } from '#server/http/codes.ts'
import { apiFields } from '#server/http/present.ts'
import {
  findVipMembership,
  vipExpiries,
  grantEntitlement,
  listMemberEntitlements,
  revokeEntitlementById,
} from '#server/modules/access/access.service.ts'
import { courseTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import {
  countMembers,
  memberForStaff,
  memberSummariesByIds,
  searchMembers,
  type MemberSummary,
  type MemberFilter,
  type StaffMemberRow as MemberRow,
} from '#server/modules/members/members.service.ts'
import { pointBalanceOf } from '#server/modules/points/points.service.ts'
import { memberSessions, revokeSessionsOf } from '#server/modules/sessions/session.service.ts'
import type {
  MemberCourseGrant,
  MemberCourseRevoke,
  MemberSearchQuery,
  MemberSessionRevoke,
  MemberSortKey,
} from '#shared/api/admin-members.ts'
import { roleKind, RoleKindNames } from '#shared/staff/roles.ts'
import { beijingDateTime, beijingDayFromText } from '#shared/time.ts'

const ENTITLEMENTS_SHOWN = 200

/** Why an entitlement exists, as the console says it. */
function whyOf(source: string, ref: string | null) {
  switch (source) {
    case 'purchase':
      return `购买（订单 ${ref ?? ''}）`
    case 'admin': {
      const m = /^admin:(\d+)\s*(.*)$/s.exec(ref ?? '')
      return m ? `后台授予（操作员 ${m[1]}${m[2] ? `：${m[2]}` : ''}）` : '后台授予'
    }
    case 'vip':
      return 'VIP 会员'
    case 'redeem':
      return `兑换码${ref ? ` ${ref}` : ''}`
    case 'exchange':
      return `平台兑换${ref ? ` ${ref}` : ''}`
    case 'unlock':
      return `学费 / 班级解锁${ref ? ` ${ref}` : ''}`
    default:
      return source
  }
}

/** Who or what an entitlement came from, as fields: the order of a purchase, the staff member and reason of a grant. */
function originOf(source: string, ref: string | null) {
  const admin = source === 'admin' ? /^admin:(\d+)\s*(.*)$/s.exec(ref ?? '') : null
  return {
    order_no: source === 'purchase' ? ref : null,
    staffId: admin ? Number(admin[1]) : null,
    reason: admin ? admin[2] || null : null,
  }
}

/** An entitlement as the member page shows it: why it exists, its order or who granted it and why. */
function explained<E extends { source: string; source_ref: string | null }>(e: E, staff: Map<number, MemberSummary>) {
  const { staffId, ...origin } = originOf(e.source, e.source_ref)
  return {
    ...e,
    ...origin,
    granted_by: staffId === null ? null : { member_id: staffId, nickname: staff.get(staffId)?.nickname ?? '' },
    why: whyOf(e.source, e.source_ref),
  }
}

/** The member's standing as the list shows it: admin, staff (any other role) or a learner (member_roles). */
function toListedMember(m: MemberRow) {
  return {
    ...apiFields(m, ['id', 'phone', 'nickname', 'isPurchaser', 'createdAt', 'lastLoginAt']),
    avatar: m.avatarUrl,
    role: roleKind(m.roles),
    wechat_bound: m.wxUnionid !== null || m.wxOpenid !== null,
  }
}

/** The CSV's VIP到期: when the member's VIP ends or ended (Beijing time), empty for one who never had it. */
const vipCell = (expiresAt: Date | undefined) => (expiresAt ? beijingDateTime(expiresAt) : '')

/** The columns of the members CSV export. */
const MEMBER_CSV_HEADER = ['会员ID', '手机号', '昵称', '角色', 'VIP到期', '绑定微信', '注册时间', '最近登录']

/**
 * Members for the operators' console: search, a member's page (profile, VIP, points balance, entitlements and why
 * each exists, sign-in sessions), granting and revoking a course through the access module, signing a member out.
 */
export function createMemberAdmin(deps: { db: Db; now: () => Date; events?: Pick<BusinessEvents, 'emit'> }) {
  const { db, now, events } = deps

  /** The filter a search query means: an 11-digit phone, a member id, or part of a nickname. */
  function filterOf(q: MemberSearchQuery): MemberFilter {
    const text = q.q?.trim()
    const byText: MemberFilter = !text
      ? {}
      : /^1\d{10}$/.test(text)
        ? { phone: text }
        : /^\d{1,10}$/.test(text) && Number(text) <= 2_147_483_647
          ? { id: Number(text) }
          : { nickname: text }
    return {
      ...byText,
      role: q.role,
      joinedFrom: q.joined_from ? beijingDayFromText(q.joined_from) : undefined,
      joinedBefore: q.joined_to ? beijingDayFromText(q.joined_to, 1) : undefined,
    }
  }

  async function requireMember(id: number) {
    const m = await memberForStaff(db, id)
    if (!m) throw new AppError(Codes.NotFound, `会员 ${id} 不存在`)
    return m
  }

  return {
    /** Members matching a search, in the asked order: a page, or the CSV (MEMBER_CSV_HEADER) of every match. */
    search: {
      page: async (q: MemberSearchQuery) => {
        const filter = filterOf(q)
        const { offset, limit } = pageWindow(q)
        const sort: Sort<MemberSortKey> = parseSort(q.sort)
        const [rows, total] = await Promise.all([
          searchMembers(db, filter, sort, offset, limit),
          countMembers(db, filter),
        ])
        const vip = await vipExpiries(
          db,
          rows.map((m) => m.id),
        )
        const at = now()
        return pageOf(
          rows.map((m) => ({ ...toListedMember(m), vip_active: (vip.get(m.id) ?? at) > at })),
          total,
          q,
        )
      },
      csv: (q: MemberSearchQuery) => {
        const filter = filterOf(q)
        const sort = parseSort(q.sort)
        return {
          header: MEMBER_CSV_HEADER,
          read: (offset: number, limit: number) => searchMembers(db, filter, sort, offset, limit),
          cells: async (rows: MemberRow[]) => {
            const vip = await vipExpiries(
              db,
              rows.map((m) => m.id),
            )
            return rows.map((m) => [
              m.id,
              m.phone,
              m.nickname,
              RoleKindNames[roleKind(m.roles)],
              vipCell(vip.get(m.id)),
              m.wxUnionid !== null || m.wxOpenid !== null ? '是' : '否',
              beijingDateTime(m.createdAt),
              m.lastLoginAt ? beijingDateTime(m.lastLoginAt) : '',
            ])
          },
        }
      },
    },

    /** A member's page: who they are, VIP, points balance, sign-in sessions. */
    async member(id: number) {
      const m = await requireMember(id)
      const at = now()
      const [vip, points, sessions] = await Promise.all([
        findVipMembership(db, id),
        pointBalanceOf(db, id),
        memberSessions(db, id, at),
      ])
      return {
        ...toListedMember(m),
        vip_expires_at: vip?.expiresAt.toISOString() ?? null,
        vip_active: vip !== null && vip.expiresAt > at,
        points_balance: points,
        sessions,
      }
    },

    /** Every entitlement of a member (newest first, up to 200) with the course and why it exists. */
    async entitlements(id: number) {
      await requireMember(id)
      const { list } = await listMemberEntitlements(db, { memberId: id, limit: ENTITLEMENTS_SHOWN }, now())
      const staffIds = list.flatMap((e) => originOf(e.source, e.source_ref).staffId ?? [])
      const [titles, staff] = await Promise.all([
        courseTitlesByIds(
          db,
          list.map((e) => e.course_id),
        ),
        memberSummariesByIds(db, staffIds),
      ])
      return {
        list: list.map((e) => ({ ...explained(e, staff), course_title: titles.get(e.course_id)?.title ?? '' })),
      }
    },

    /** Grants the member a whole course (source admin; the reason is kept with it), through the access module. */
    async grant(staffId: number, id: number, body: MemberCourseGrant) {
      const granted = await grantEntitlement(db, {
        memberId: id,
        courseId: body.course_id,
        source: 'admin',
        sourceRef: `admin:${staffId} ${body.reason}`,
        expiresAt: body.expires_at ? new Date(body.expires_at) : null,
        now: now(),
      })
      events?.emit({
        event: 'access.granted',
        member_id: id,
        source: 'admin',
        ref: `entitlement:${granted.id} by admin:${staffId}`,
        courses: [granted.course_id],
        reason: body.reason,
      })
      return explained(granted, await memberSummariesByIds(db, [staffId]))
    },

    /** Revokes one of the member's entitlements at once (its reason goes to the staff action log and the event). */
    async revoke(staffId: number, id: number, entitlementId: number, body: MemberCourseRevoke) {
      const { list } = await listMemberEntitlements(db, { memberId: id, limit: ENTITLEMENTS_SHOWN }, now())
      if (!list.some((e) => e.id === entitlementId))
        throw new AppError(Codes.NotFound, `会员 ${id} 没有授权 ${entitlementId}`)
      const at = now()
      const revoked = await revokeEntitlementById(db, entitlementId, at)
      if (revoked.revoked_at === at.toISOString())
        events?.emit({
          event: 'access.revoked',
          member_id: id,
          source: revoked.source,
          ref: `entitlement:${revoked.id} by admin:${staffId}`,
          courses: [revoked.course_id],
          reason: body.reason,
        })
      const by = originOf(revoked.source, revoked.source_ref).staffId
      return explained(revoked, await memberSummariesByIds(db, by === null ? [] : [by]))
    },

    /** Signs the member out of one session or of all; their tokens stop working at once. */
    async revokeSessions(id: number, body: MemberSessionRevoke) {
      await requireMember(id)
      const revoked = await revokeSessionsOf(db, id, now(), body.session_id)
      if (body.session_id !== undefined && revoked === 0) {
        const known = (await memberSessions(db, id, now(), 1000)).some((s) => s.id === body.session_id)
        if (!known) throw new AppError(Codes.NotFound, `会员 ${id} 没有登录会话 ${body.session_id}`)
      }
      return { revoked, sessions: await memberSessions(db, id, now()) }
    },
  }
}

export type MemberAdmin = ReturnType<typeof createMemberAdmin>
