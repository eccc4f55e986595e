import type { DbOrTx } from '#server/db/database.ts'
import { maskPhone, normalizePhone, upsertAdminByPhone } from '#server/modules/members/members.service.ts'

/**
 * The first operator (scripts/create-admin.ts): creates a member with this phone as admin, or promotes the member
 * who has it. They then sign in with an SMS code like anyone else.
 */
export async function createAdmin(db: DbOrTx, input: { phone: string; nickname?: string }, now = new Date()) {
  const phone = normalizePhone(input.phone)
  const nickname = input.nickname?.trim() || '管理员'
  const row = await upsertAdminByPhone(db, phone, nickname.slice(0, 20), now)
  return { member_id: row.id, phone: maskPhone(phone), nickname: row.nickname, created: row.created }
}
