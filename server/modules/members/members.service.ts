import type { Db, DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { maskPhone } from '#server/modules/auth/auth.rules.ts'
import type { MediaService } from '#server/modules/media/media.service.ts'
import {
  findMemberById,
  findMemberByPhone,
  insertMemberWithPhone,
  updateMemberProfile,
  type MemberRow,
} from './members.repository.ts'
import type { MemberProfile, UpdateMemberInfoBody } from './members.schema.ts'
// Reads for commerce (end of file).
import { findPhones } from './members.repository.ts'

const NICKNAME_MAX = 20
// Control characters, line separators and invisible direction or width marks: they break layouts and let one
// name pass for another. (The zero-width joiner stays allowed: emoji sequences need it.)
const FORBIDDEN_IN_NICKNAME = /[\p{Cc}\p{Zl}\p{Zp}\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/u

/** The profile the API shows: phone masked, WeChat binding as a flag. */
export function toProfile(row: MemberRow): MemberProfile {
  return {
    member_id: row.id,
    nickname: row.nickname,
    avatar: row.avatarUrl,
    phone: row.phone ? maskPhone(row.phone) : '',
    has_phone: row.phone !== null,
    wechat_bound: row.wxUnionid !== null || row.wxOpenid !== null,
    role: row.role,
    created_at: row.createdAt.toISOString(),
  }
}

/** The nickname a member first gets: "学员" and the last four digits of the phone. */
export function defaultNickname(phone: string) {
  return `学员${phone.slice(-4)}`
}

/** A nickname after trimming, or NicknameInvalid: 1–20 characters, no control or invisible characters. */
export function normalizeNickname(raw: string) {
  const nickname = raw.normalize('NFC').trim()
  const length = [...nickname].length
  if (length < 1 || length > NICKNAME_MAX || FORBIDDEN_IN_NICKNAME.test(nickname))
    throw new AppError(Codes.NicknameInvalid)
  return nickname
}

/** The member who owns this phone, created on the first login with a default nickname. */
export async function findOrCreateMemberByPhone(db: DbOrTx, phone: string, now: Date) {
  const existing = await findMemberByPhone(db, phone)
  if (existing) return existing
  const created = await insertMemberWithPhone(db, { phone, nickname: defaultNickname(phone), at: now })
  if (!created) throw new Error('member for a phone vanished right after it was created')
  return created
}

export interface MembersServiceDeps {
  db: Db
  now: () => Date
  media: MediaService
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
        throw new AppError(Codes.BadRequest, '请提供要修改的昵称（nickname）或头像（avatar）')
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

// ---- Reads for commerce: order and refund lists for staff, checkout, points adjustments ----------------------

/** Whether a member with this id exists. */
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

/** Each member's phone (null when none), by id, in one statement. */
export async function memberPhones(db: DbOrTx, ids: number[]): Promise<Map<number, string | null>> {
  const rows = await findPhones(db, [...new Set(ids)])
  return new Map(rows.map((r) => [r.id, r.phone]))
}
