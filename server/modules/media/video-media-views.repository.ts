import { inArray } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { videoMedia } from '#server/db/schema/media.ts'

/** The media rows of several videos at once (videos without an upload have none). */
export async function findVideoMediaRows(db: DbOrTx, videoIds: number[]) {
  if (videoIds.length === 0) return []
  return db.select().from(videoMedia).where(inArray(videoMedia.videoId, videoIds))
}
