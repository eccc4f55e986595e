import { eq } from 'drizzle-orm'
// Batch reads for orders and refunds (end of file).
import { inArray } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { members } from '#server/db/schema/members.ts'

const profileColumns = {
  id: members.id,
  phone: members.phone,
  nickname: members.nickname,
  avatarUrl: members.avatarUrl,
  role: members.role,
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

// ---- Batch reads for staff lists elsewhere (orders, refunds) ------------------------------------------------

/** The phone of each of these members (null when a member has none). */
export async function findPhones(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return []
  return db.select({ id: members.id, phone: members.phone }).from(members).where(inArray(members.id, ids))
}
