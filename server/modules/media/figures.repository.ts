import { desc, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { videoMedia } from '#server/db/schema/media.ts'

/** Transcodes whose last attempt failed, newest first, and how many (the operators' dashboard; video_media_failed_idx). */
export async function failedTranscodes(db: DbOrTx, limit: number) {
  // Written out, not a parameter: a generic plan (server/db/database.ts) uses the partial index only for a literal.
  const failed = sql`${videoMedia.status} = 'failed'`
  const [rows, [count]] = await Promise.all([
    db
      .select({ videoId: videoMedia.videoId, error: videoMedia.error, updatedAt: videoMedia.updatedAt })
      .from(videoMedia)
      .where(failed)
      .orderBy(desc(videoMedia.updatedAt))
      .limit(limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(videoMedia)
      .where(failed),
  ])
  return { total: count?.n ?? 0, rows }
}
