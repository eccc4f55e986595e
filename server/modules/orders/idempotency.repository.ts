import { and, eq, isNull, lt } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { idempotencyKeys } from '#server/db/schema/orders.ts'

/** Takes a key for a first request; null when the member used it before (or another request holds it now). */
export async function claimKey(
  db: DbOrTx,
  row: { memberId: number; key: string; requestHash: string; createdAt: Date },
) {
  const [inserted] = await db
    .insert(idempotencyKeys)
    .values(row)
    .onConflictDoNothing({ target: [idempotencyKeys.memberId, idempotencyKeys.key] })
    .returning({ id: idempotencyKeys.id })
  return inserted?.id ?? null
}

export async function findKey(db: DbOrTx, memberId: number, key: string) {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.memberId, memberId), eq(idempotencyKeys.key, key)))
  return row ?? null
}

/** Takes over a key whose first request never answered (its process died); one taker wins. */
export async function takeOverStaleKey(db: DbOrTx, id: number, createdAt: Date, now: Date) {
  const rows = await db
    .update(idempotencyKeys)
    .set({ createdAt: now })
    .where(and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.createdAt, createdAt), isNull(idempotencyKeys.response)))
    .returning({ id: idempotencyKeys.id })
  return rows.length > 0
}

export async function saveKeyResponse(db: DbOrTx, id: number, response: { status: number; body: string }) {
  await db.update(idempotencyKeys).set({ response }).where(eq(idempotencyKeys.id, id))
}

/** Forgets a key whose request failed on our side, so that a retry runs again. */
export async function releaseKey(db: DbOrTx, id: number) {
  await db.delete(idempotencyKeys).where(eq(idempotencyKeys.id, id))
}

/** Forgets keys created before `before` (they are kept for a day). */
export async function deleteKeysBefore(db: DbOrTx, before: Date) {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, before))
}
