import { and, eq, inArray, ne, or, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { videoMedia, type Rendition } from '#server/db/schema/media.ts'

export type VideoMediaRow = typeof videoMedia.$inferSelect

export async function findVideoMedia(db: DbOrTx, videoId: number) {
  const [row] = await db.select().from(videoMedia).where(eq(videoMedia.videoId, videoId))
  return row ?? null
}

/** What the playback endpoints need of a playable video: where its HLS output is and its key. */
export async function findPlayable(db: DbOrTx, videoId: number) {
  const [row] = await db
    .select({ hlsPrefix: videoMedia.hlsPrefix, keyBytes: videoMedia.keyBytes, renditions: videoMedia.renditions })
    .from(videoMedia)
    .where(eq(videoMedia.videoId, videoId))
    .limit(1)
  return row?.hlsPrefix && row.keyBytes
    ? { hlsPrefix: row.hlsPrefix, keyBytes: row.keyBytes, renditions: row.renditions }
    : null
}

/**
 * Records a new upload unless the video is being transcoded right now. Returns the previous source key (to delete
 * once replaced), or `busy`.
 */
export async function recordUpload(
  db: DbOrTx,
  row: { videoId: number; sourceKey: string; sourceName: string; sourceBytes: number; now: Date },
): Promise<{ previousSource: string | null } | 'busy'> {
  const [before] = await db
    .select({ sourceKey: videoMedia.sourceKey })
    .from(videoMedia)
    .where(eq(videoMedia.videoId, row.videoId))
    .for('update')
  const values = {
    status: 'uploaded' as const,
    progress: 0,
    error: null,
    sourceKey: row.sourceKey,
    sourceName: row.sourceName,
    sourceBytes: row.sourceBytes,
    updatedAt: row.now,
  }
  const [saved] = await db
    .insert(videoMedia)
    .values({ videoId: row.videoId, ...values, createdAt: row.now })
    .onConflictDoUpdate({ target: videoMedia.videoId, set: values, setWhere: ne(videoMedia.status, 'transcoding') })
    .returning({ videoId: videoMedia.videoId })
  if (!saved) return 'busy'
  return { previousSource: before?.sourceKey && before.sourceKey !== row.sourceKey ? before.sourceKey : null }
}

/** Puts a video with a source back in the queue state (for a manual retry); false when there is no source or it is busy. */
export async function markQueued(db: DbOrTx, videoId: number, now: Date) {
  const rows = await db
    .update(videoMedia)
    .set({ status: 'uploaded', progress: 0, error: null, updatedAt: now })
    .where(
      and(
        eq(videoMedia.videoId, videoId),
        sql`${videoMedia.sourceKey} is not null`,
        ne(videoMedia.status, 'transcoding'),
      ),
    )
    .returning({ videoId: videoMedia.videoId })
  return rows.length > 0
}

/** Marks the start of a transcoding run and returns the source it works on (null: nothing to transcode). */
export async function startTranscoding(db: DbOrTx, videoId: number, now: Date) {
  const [row] = await db
    .update(videoMedia)
    .set({ status: 'transcoding', progress: 0, error: null, updatedAt: now })
    .where(and(eq(videoMedia.videoId, videoId), sql`${videoMedia.sourceKey} is not null`))
    .returning({ sourceKey: videoMedia.sourceKey, sourceName: videoMedia.sourceName })
  return row?.sourceKey ? { sourceKey: row.sourceKey } : null
}

export async function setProgress(db: DbOrTx, videoId: number, progress: number, now: Date) {
  await db
    .update(videoMedia)
    .set({ progress, updatedAt: now })
    .where(and(eq(videoMedia.videoId, videoId), eq(videoMedia.status, 'transcoding')))
}

export async function setPlannedRenditions(db: DbOrTx, videoId: number, renditions: Rendition[], now: Date) {
  await db
    .update(videoMedia)
    .set({ plannedRenditions: renditions, updatedAt: now })
    .where(and(eq(videoMedia.videoId, videoId), eq(videoMedia.status, 'transcoding')))
}

/** Leaves the transcoding state after an interrupted or failed attempt (the queue retries it). */
export async function markWaiting(db: DbOrTx, videoId: number, error: string | null, now: Date) {
  await db
    .update(videoMedia)
    .set({ status: 'uploaded', progress: 0, error, updatedAt: now })
    .where(
      and(eq(videoMedia.videoId, videoId), or(eq(videoMedia.status, 'transcoding'), eq(videoMedia.status, 'uploaded'))),
    )
}

export async function markFailed(db: DbOrTx, videoId: number, error: string, now: Date) {
  await db
    .update(videoMedia)
    .set({ status: 'failed', progress: 0, error, updatedAt: now })
    .where(eq(videoMedia.videoId, videoId))
}

/** A finished transcoding's output, and when it finished. */
interface ReadyMedia {
  hlsPrefix: string
  keyBytes: Buffer
  renditions: Rendition[]
  posterKey: string | null
  duration: number
  now: Date
}

/**
 * Switches the video to its new HLS output (and key, poster, duration) if the source is still the one that was
 * transcoded. Returns the output it replaced, so its files can be removed, or null when the source changed. The
 * caller records the new length on the video (the catalogue's) in the same transaction.
 */
export async function finishTranscoding(db: DbOrTx, videoId: number, sourceKey: string, out: ReadyMedia) {
  const [before] = await db
    .select({ hlsPrefix: videoMedia.hlsPrefix, posterKey: videoMedia.posterKey })
    .from(videoMedia)
    .where(and(eq(videoMedia.videoId, videoId), eq(videoMedia.sourceKey, sourceKey)))
    .for('update')
  if (!before) return null
  await db
    .update(videoMedia)
    .set({
      status: 'ready',
      progress: 100,
      error: null,
      hlsPrefix: out.hlsPrefix,
      keyBytes: out.keyBytes,
      renditions: out.renditions,
      posterKey: out.posterKey,
      duration: out.duration,
      updatedAt: out.now,
      readyAt: out.now,
    })
    .where(eq(videoMedia.videoId, videoId))
  return before
}

/** Which of these videos have a media row (uploaded, transcoding, ready or failed). */
export async function findVideoIdsWithMedia(db: DbOrTx, videoIds: readonly number[]) {
  if (videoIds.length === 0) return new Set<number>()
  const rows = await db
    .select({ id: videoMedia.videoId })
    .from(videoMedia)
    .where(inArray(videoMedia.videoId, [...videoIds]))
  return new Set(rows.map((r) => r.id))
}

/** Writes ready media rows for videos that have none (demo media transcoded ahead of time). */
export async function insertReadyMedia(db: DbOrTx, rows: (ReadyMedia & { videoId: number })[]) {
  if (rows.length === 0) return
  await db.insert(videoMedia).values(
    rows.map(({ now, ...r }) => ({
      ...r,
      status: 'ready' as const,
      progress: 100,
      createdAt: now,
      updatedAt: now,
      readyAt: now,
    })),
  )
}
