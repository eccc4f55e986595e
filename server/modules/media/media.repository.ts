import { and, eq } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { insertId } from '#server/db/rows.ts'
import { mediaSecrets, uploads } from '#server/db/schema/media.ts'

export async function insertUpload(
  db: DbOrTx,
  row: { memberId: number; path: string; width: number; height: number; bytes: number; createdAt: Date },
) {
  return insertId(db, uploads, row)
}

/** Deletes the member's uploaded images' rows (account deletion) and answers their storage keys. */
export async function deleteMemberUploads(db: DbOrTx, memberId: number) {
  const rows = await db.delete(uploads).where(eq(uploads.memberId, memberId)).returning({ path: uploads.path })
  return rows.map((r) => r.path)
}

/** The upload at this path if this member made it. */
export async function findMemberUpload(db: DbOrTx, memberId: number, path: string) {
  const [row] = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.memberId, memberId), eq(uploads.path, path)))
    .limit(1)
  return row
}

/** The secret stored under `name`, storing `candidate` first when there is none (the first process wins). */
export async function sharedSecret(db: DbOrTx, name: string, candidate: string): Promise<string> {
  await db.insert(mediaSecrets).values({ name, value: candidate }).onConflictDoNothing()
  const [row] = await db.select({ value: mediaSecrets.value }).from(mediaSecrets).where(eq(mediaSecrets.name, name))
  return row!.value
}
