import { and, eq, isNull } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { members } from '#server/db/schema/members.ts'
import { sessions } from '#server/db/schema/sessions.ts'

export async function insertSession(
  db: DbOrTx,
  row: { memberId: number; tokenHash: string; platform: number; expiresAt: Date },
) {
  const [session] = await db.insert(sessions).values(row).returning({ id: sessions.id })
  return session!
}

export async function markLoggedIn(db: DbOrTx, memberId: number, at: Date) {
  await db.update(members).set({ lastLoginAt: at }).where(eq(members.id, memberId))
}

/** Revokes one session; revoking twice changes nothing. */
export async function revokeSession(db: DbOrTx, sessionId: number, at: Date) {
  await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
}
