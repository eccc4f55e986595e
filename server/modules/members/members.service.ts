import type { Db, DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { MemberProfile } from '#shared/api/members.ts'
import { roleKind } from '#shared/staff/roles.ts'
import {
  findMemberById,
  findMemberByOpenid,
  findMemberByPhone,
  findMemberByUnionid,
  findMemberRoles,
  findMemberSummaries,
  findWechatMemberById,
  insertMemberWithPhone,
  insertWechatMember,
  markLoggedIn as updateLastLogin,
  setMemberPhone,
  updateMemberProfile,
  updateMemberWechat as updateWechatFields,
  upsertAdmin,
  type MemberRow,
  findPhones,
} from './members.repository.ts'
import type { UpdateMemberInfoBody } from './members.schema.ts'

const NICKNAME_MAX = 20
const PHONE = /^1[3-9]\d{9}$/
// Control characters, line separators and invisible direction or width marks: they break layouts and let one
// name pass for another. (The zero-width joiner stays allowed: emoji sequences need it.)
const FORBIDDEN_IN_NICKNAME = /[\p{Cc}\p{Zl}\p{Zp}\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/u

/** The phone after trimming, or 401 "手机号格式错误" (mainland mobile numbers). */
export function normalizePhone(raw: string) {
  const phone = raw.trim()
  if (!PHONE.test(phone)) throw new AppError(Codes.PhoneInvalid)
  return phone
}

/** 13800138000 → 138****8000: the only form a phone number takes in logs and in profile responses. */
export function maskPhone(phone: string) {
  return phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : '****'
}

/** The profile the API shows: phone masked, WeChat binding as a flag. */
function toProfile(row: MemberRow): MemberProfile {
  return {
    member_id: row.id,
    nickname: row.nickname,
    avatar: row.avatarUrl,
    phone: row.phone ? maskPhone(row.phone) : '',
    has_phone: row.phone !== null,
    wechat_bound: row.wxUnionid !== null || row.wxOpenid !== null,
    role: roleKind(row.roles),
    created_at: row.createdAt.toISOString(),
  }
}

/** The nickname a member first gets: "学员" and the last four digits of the phone. */
function defaultNickname(phone: string) {
  return `学员${phone.slice(-4)}`
}

/** A nickname after trimming, or NicknameInvalid: 1–20 characters, no control or invisible characters. */
function normalizeNickname(raw: string) {
  const nickname = raw.normalize('NFC').trim()
  const length = [...nickname].length
  if (length < 1 || length > NICKNAME_MAX || FORBIDDEN_IN_NICKNAME.test(nickname))
    throw new AppError(Codes.NicknameInvalid)
  return nickname
}

/** Gives a member the nickname staff chose (a new staff member's name), held to the nickname rules. */
export async function renameMember(db: DbOrTx, memberId: number, name: string, at: Date) {
  await updateMemberProfile(db, memberId, { nickname: normalizeNickname(name) }, at)
}

/** The member who owns this phone, created on the first login with a default nickname. */
export async function findOrCreateMemberByPhone(db: DbOrTx, phone: string, now: Date) {
  const existing = await findMemberByPhone(db, phone)
  if (existing) return existing
  const created = await insertMemberWithPhone(db, { phone, nickname: defaultNickname(phone), at: now })
  if (!created) throw new Error('member for a phone vanished right after it was created')
  return created
}

/** The member who holds this phone (with the fields sign-in checks), or undefined. */
export function memberByPhone(db: DbOrTx, phone: string): Promise<MemberRow | undefined> {
  return findMemberByPhone(db, phone)
}

/** A member's profile as the API shows it, or null when there is no such member. */
export async function profileOf(db: DbOrTx, memberId: number): Promise<MemberProfile | null> {
  const row = await findMemberById(db, memberId)
  return row ? toProfile(row) : null
}

/** Sets a member's phone. The unique index refuses a phone another member holds (error 23505). */
export const setPhone = setMemberPhone

/** A member's staff roles, or null when there is no such member (the session lookup, server/modules/sessions). */
export const memberRoles = findMemberRoles

/** Records a sign-in's time on the member (a new session). */
export const markLoggedIn = updateLastLogin

export interface MemberSummary {
  nickname: string
  avatarUrl: string | null
  /** Unmasked: only for operators' screens (the staff action record). */
  phone: string | null
}

/** Nickname, avatar and phone of several members, by id, in one query (comment authors, operators). */
export async function memberSummariesByIds(db: DbOrTx, ids: number[]): Promise<Map<number, MemberSummary>> {
  const rows = await findMemberSummaries(db, [...new Set(ids)])
  return new Map(rows.map((r) => [r.id, { nickname: r.nickname, avatarUrl: r.avatarUrl, phone: r.phone }]))
}

/** The first operator (scripts/create-admin.ts): a new admin member with this phone, or the holder promoted. */
export const upsertAdminByPhone = upsertAdmin

// ---- WeChat identities (server/modules/wechat) ----

/** The member bound to this WeChat unionid, with their WeChat fields. */
export const memberByWechatUnionid = findMemberByUnionid

/** The member bound to this WeChat openid (of this site's official account). */
export const memberByWechatOpenid = findMemberByOpenid

/** A member with their WeChat fields, by id. */
export const wechatMemberById = findWechatMemberById

/** Creates a member from a WeChat profile; the new id. */
export const createWechatMember = insertWechatMember

/** Sets a member's WeChat identifiers and/or nickname and avatar (only the fields given). */
export const updateMemberWechat = updateWechatFields

export interface MembersServiceDeps {
  db: Db
  now: () => Date
  /** Uploaded images (server/modules/media): the canonical URL of one this member uploaded, or null. */
  media: { ownUploadUrl(memberId: number, url: string): Promise<string | null> }
}

export function createMembersService(deps: MembersServiceDeps) {
  async function profile(memberId: number): Promise<MemberProfile> {
    const row = await findMemberById(deps.db, memberId)
    // Sessions are deleted with their member, so this is at most a race with a deletion.
    if (!row) throw new AppError(Codes.NotLoggedIn)
    return toProfile(row)
  }

  return {
    /** The signed-in member's own profile. */
    profile,

    /** Any member's profile, for staff. */
    async profileForStaff(memberId: number): Promise<MemberProfile> {
      const row = await findMemberById(deps.db, memberId)
      if (!row) throw new AppError(Codes.NotFound, '学员不存在')
      return toProfile(row)
    },

    /** Changes the nickname and/or the avatar; the avatar must be an image this member uploaded. */
    async updateInfo(memberId: number, input: UpdateMemberInfoBody): Promise<MemberProfile> {
      if (input.nickname === undefined && input.avatar === undefined) {
        throw new AppError(Codes.BadRequest, '请提供要修改的昵称或头像')
      }
      const changes: { nickname?: string; avatarUrl?: string } = {}
      if (input.nickname !== undefined) changes.nickname = normalizeNickname(input.nickname)
      if (input.avatar !== undefined) {
        const url = await deps.media.ownUploadUrl(memberId, input.avatar)
        if (!url) throw new AppError(Codes.AvatarInvalid)
        changes.avatarUrl = url
      }
      await updateMemberProfile(deps.db, memberId, changes, deps.now())
      return profile(memberId)
    },
  }
}

export type MembersService = ReturnType<typeof createMembersService>

// ---- Reads for other modules (access, points, orders, refunds) ----------------------------------------------

/** Whether a member with this id exists (for modules that take a member id from an operator or a request). */
export async function memberExists(db: DbOrTx, id: number): Promise<boolean> {
  return (await findMemberById(db, id)) !== undefined
}

/** The member's WeChat openid (JSAPI payments need it), or null. */
export async function memberOpenid(db: DbOrTx, id: number): Promise<string | null> {
  return (await findMemberById(db, id))?.wxOpenid ?? null
}

/** The id of the member who owns this phone, or null. */
export async function memberIdByPhone(db: DbOrTx, phone: string): Promise<number | null> {
  return (await findMemberByPhone(db, phone))?.id ?? null
}

/**
 * The member a console search box names: an 11-digit phone or a member id; null when the text is neither or
 * nobody has that phone (the list then shows nothing).
 */
export async function memberIdFromSearch(db: DbOrTx, text: string): Promise<number | null> {
  if (/^1\d{10}$/.test(text)) return memberIdByPhone(db, text)
  return /^\d{1,9}$/.test(text) ? Number(text) : null
}

/**
 * A console list's filter with its search box naming a member (memberIdFromSearch): `base` alone when the box is
 * empty, with that member's id when the text names one, null when it names nobody (the list shows nothing).
 */
export async function memberSearchFilter<F extends object>(
  db: DbOrTx,
  text: string | undefined,
  base: F,
): Promise<(F & { memberId?: number }) | null> {
  if (!text) return base
  const memberId = await memberIdFromSearch(db, text)
  return memberId === null ? null : { ...base, memberId }
}

/** Each member's phone (null when none), by id, in one statement. */
export async function memberPhones(db: DbOrTx, ids: number[]): Promise<Map<number, string | null>> {
  const rows = await findPhones(db, [...new Set(ids)])
  return new Map(rows.map((r) => [r.id, r.phone]))
}

/** Members who joined in a period, by Beijing day (operators' dashboard). */
export { newMemberFigures } from './figures.repository.ts'

/** Members as the operators' console lists and counts them (phone, id, part of a nickname, role, joining date). */
export {
  countMembers,
  searchMembers,
  type MemberFilter,
  type StaffMemberRow,
  findStaffMember as memberForStaff,
} from './search.repository.ts'

/** A condition on the member's staff roles for another module's statement (the access function's staff preview). */
export { holdsRoleCondition } from './role-condition.repository.ts'

/** A member's profile as held (data export) and its anonymisation (account deletion), issue 10 §5. */
export { anonymiseMember, selectProfile as profileForExport } from './members-privacy.repository.ts'
