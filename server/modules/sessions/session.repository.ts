import { and, desc, eq, isNull } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { preparedText, queryPrepared } from '#server/db/prepared.ts'
import { stampOnce } from '#server/db/rows.ts'
import { sessions } from '#server/db/schema/sessions.ts'

export async function insertSession(
  db: DbOrTx,
  row: { memberId: number; tokenHash: string; platform: number; createdAt: Date; expiresAt: Date },
) {
  const [session] = await db.insert(sessions).values(row).returning({ id: sessions.id })
  return session!
}

/** The session a token hash belongs to: read on every signed-in request, so written once as a prepared statement. */
const sessionByTokenHash = preparedText(
  'sessions_by_token_hash',
  `select id, member_id, created_at, expires_at, revoked_at from sessions where token_hash = $1 limit 1`,
)

/** The session a token hash belongs to (revoked and expired ones too), or null. */
export async function findSessionByTokenHash(db: DbOrTx, tokenHash: string) {
  const [row] = await queryPrepared<{
    id: number
    member_id: number
    created_at: Date
    expires_at: Date
    revoked_at: Date | null
  }>(db, sessionByTokenHash, [tokenHash])
  if (!row) return null
  return {
    sessionId: row.id,
    memberId: row.member_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  }
}

/** A session by id (revoked and expired ones too), or null. */
export async function findSessionById(db: DbOrTx, sessionId: number) {
  const [row] = await db
    .select({ expiresAt: sessions.expiresAt, revokedAt: sessions.revokedAt })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1)
  return row ?? null
}

/** Revokes one session; revoking twice changes nothing. The token hash of a session revoked now. */
export async function revokeSession(db: DbOrTx, sessionId: number, at: Date) {
  return stampOnce(db, sessions, 'revokedAt', at, eq(sessions.id, sessionId)).returning({
    tokenHash: sessions.tokenHash,
  })
}

/** A member's sessions, newest first (the operators' console). */
export async function findMemberSessions(db: DbOrTx, memberId: number, limit: number) {
  return db
    .select({
      id: sessions.id,
      platform: sessions.platform,
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
    })
    .from(sessions)
    .where(eq(sessions.memberId, memberId))
    .orderBy(desc(sessions.id))
    .limit(limit)
}

/** Revokes a member's sessions: one (`sessionId`) or all still open. The token hashes of those revoked now. */
export async function revokeMemberSessions(db: DbOrTx, memberId: number, at: Date, sessionId?: number) {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(
      and(
        eq(sessions.memberId, memberId),
        isNull(sessions.revokedAt),
        sessionId === undefined ? undefined : eq(sessions.id, sessionId),
      ),
    )
    .returning({ tokenHash: sessions.tokenHash })
  return rows.map((r) => r.tokenHash)
}
