import { eq, inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { selectWhereIn } from '#server/db/rows.ts'
import { memberRoles, members } from '#server/db/schema/members.ts'
import type { StaffRole } from '#shared/staff/roles.ts'

const profileColumns = {
  id: members.id,
  phone: members.phone,
  nickname: members.nickname,
  avatarUrl: members.avatarUrl,
  roles: sql<
    StaffRole[]
  >`coalesce((select array_agg(r.role order by r.role) from ${memberRoles} r where r.member_id = ${members.id}), '{}')`,
  wxUnionid: members.wxUnionid,
  wxOpenid: members.wxOpenid,
  isPurchaser: members.isPurchaser,
  createdAt: members.createdAt,
}

export type MemberRow = NonNullable<Awaited<ReturnType<typeof findMemberById>>>

export async function findMemberById(db: DbOrTx, id: number) {
  const [row] = await db.select(profileColumns).from(members).where(eq(members.id, id)).limit(1)
  return row
}

export async function findMemberByPhone(db: DbOrTx, phone: string) {
  const [row] = await db.select(profileColumns).from(members).where(eq(members.phone, phone)).limit(1)
  return row
}

/** Inserts a member for a phone unless one exists (two first logins at once make one member). */
export async function insertMemberWithPhone(db: DbOrTx, row: { phone: string; nickname: string; at: Date }) {
  await db
    .insert(members)
    .values({ phone: row.phone, nickname: row.nickname, createdAt: row.at, updatedAt: row.at })
    .onConflictDoNothing()
  return findMemberByPhone(db, row.phone)
}

export async function updateMemberProfile(
  db: DbOrTx,
  id: number,
  changes: { nickname?: string; avatarUrl?: string },
  at: Date,
) {
  await db
    .update(members)
    .set({ ...changes, updatedAt: at })
    .where(eq(members.id, id))
}

/** Sets a member's phone. The unique index refuses a phone another member holds (error 23505). */
export async function setMemberPhone(db: DbOrTx, id: number, phone: string, at: Date) {
  await db.update(members).set({ phone, updatedAt: at }).where(eq(members.id, id))
}

/** A member's staff roles (for the session lookup), or null when there is no such member. */
export async function findMemberRoles(db: DbOrTx, id: number): Promise<StaffRole[] | null> {
  const [row] = await db.select({ roles: profileColumns.roles }).from(members).where(eq(members.id, id)).limit(1)
  return row?.roles ?? null
}

export async function markLoggedIn(db: DbOrTx, memberId: number, at: Date) {
  await db.update(members).set({ lastLoginAt: at }).where(eq(members.id, memberId))
}

/** Name, avatar and phone of several members at once (one indexed query). */
export async function findMemberSummaries(db: DbOrTx, ids: number[]) {
  const fields = { id: members.id, nickname: members.nickname, avatarUrl: members.avatarUrl, phone: members.phone }
  return selectWhereIn(db, members.id, ids, fields)
}

/** Creates a member with this phone as admin, or makes the existing one admin (the nickname only fills a gap). */
export async function upsertAdmin(db: DbOrTx, phone: string, nickname: string, now: Date) {
  const [row] = await db
    .insert(members)
    .values({ phone, nickname, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: members.phone,
      targetWhere: sql`${members.phone} is not null`,
      set: { updatedAt: now },
    })
    // xmax is 0 on a row this statement inserted, and set on one it updated: not a clock comparison, which two
    // statements within one millisecond would fool.
    .returning({ id: members.id, nickname: members.nickname, created: sql<boolean>`(xmax = 0)` })
  await db.insert(memberRoles).values({ memberId: row!.id, role: 'admin', grantedAt: now }).onConflictDoNothing()
  return { ...row!, role: 'admin' as const }
}

// ---- WeChat identities (server/modules/wechat signs members in and binds them) ----

const wechatColumns = {
  id: members.id,
  nickname: members.nickname,
  avatarUrl: members.avatarUrl,
  wxOpenid: members.wxOpenid,
  wxUnionid: members.wxUnionid,
}

export type WechatMemberRow = {
  id: number
  nickname: string
  avatarUrl: string | null
  wxOpenid: string | null
  wxUnionid: string | null
}

export async function findMemberByUnionid(db: DbOrTx, unionid: string): Promise<WechatMemberRow | undefined> {
  const [row] = await db.select(wechatColumns).from(members).where(eq(members.wxUnionid, unionid)).limit(1)
  return row
}

export async function findMemberByOpenid(db: DbOrTx, openid: string): Promise<WechatMemberRow | undefined> {
  const [row] = await db.select(wechatColumns).from(members).where(eq(members.wxOpenid, openid)).limit(1)
  return row
}

export async function findWechatMemberById(db: DbOrTx, id: number): Promise<WechatMemberRow | undefined> {
  const [row] = await db.select(wechatColumns).from(members).where(eq(members.id, id)).limit(1)
  return row
}

export async function insertWechatMember(
  db: DbOrTx,
  row: {
    nickname: string
    avatarUrl: string | null
    gender: number
    wxOpenid: string
    wxUnionid: string | null
    now: Date
  },
) {
  const [created] = await db
    .insert(members)
    .values({
      nickname: row.nickname,
      avatarUrl: row.avatarUrl,
      gender: row.gender,
      wxOpenid: row.wxOpenid,
      wxUnionid: row.wxUnionid,
      createdAt: row.now,
      updatedAt: row.now,
    })
    .returning({ id: members.id })
  return created!.id
}

export async function updateMemberWechat(
  db: DbOrTx,
  id: number,
  patch: { wxOpenid?: string; wxUnionid?: string; nickname?: string; avatarUrl?: string; now: Date },
) {
  const { now, ...fields } = patch
  if (Object.keys(fields).length === 0) return
  await db
    .update(members)
    .set({ ...fields, updatedAt: now })
    .where(eq(members.id, id))
}

// ---- Batch reads for staff lists elsewhere (orders, refunds) ------------------------------------------------

/** The phone of each of these members (null when a member has none). */
export async function findPhones(db: DbOrTx, ids: number[]) {
  return db.select({ id: members.id, phone: members.phone }).from(members).where(inArray(members.id, ids))
}
