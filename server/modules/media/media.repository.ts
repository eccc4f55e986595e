import { and, eq } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { insertId } from '#server/db/rows.ts'
import { uploads } from '#server/db/schema/media.ts'

export async function insertUpload(
  db: DbOrTx,
  row: { memberId: number; path: string; width: number; height: number; bytes: number; createdAt: Date },
) {
  return insertId(db, uploads, row)
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
