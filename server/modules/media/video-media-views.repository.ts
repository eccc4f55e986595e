import { inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { videoMedia, type VideoMediaStatus } from '#server/db/schema/media.ts'

/** The media rows of several videos at once (videos without an upload have none). */
export async function findVideoMediaRows(db: DbOrTx, videoIds: number[]) {
  if (videoIds.length === 0) return []
  return db.select().from(videoMedia).where(inArray(videoMedia.videoId, videoIds))
}

/** `exists` (or, for 'none', `not exists`) a media row of the video in that state: video_media's primary key. */
export function mediaStateCondition(state: 'none' | VideoMediaStatus) {
  return (videoId: AnyColumn): SQL => {
    const row = sql`select 1 from ${videoMedia} m where m.video_id = ${videoId}`
    return state === 'none' ? sql`not exists (${row})` : sql`exists (${row} and m.status = ${state})`
  }
}
