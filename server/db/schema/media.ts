import { sql } from 'drizzle-orm'
import {
  bigint,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
} from 'drizzle-orm/pg-core'
import { videos } from './catalogue.ts'
import { memberOwned } from './members.ts'
import { ref, timestampsDefaultNow, timestamptz } from './columns.ts'

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' })

export const videoMediaStatuses = ['uploaded', 'transcoding', 'ready', 'failed'] as const
export type VideoMediaStatus = (typeof videoMediaStatuses)[number]

/** One HLS rendition as the transcoder made it. */
export interface Rendition {
  name: string
  width: number
  height: number
  /** Peak bits per second, as in the master playlist's BANDWIDTH. */
  bandwidth: number
}

/**
 * The media of a video: the uploaded source, the state of its transcoding and the HLS output that plays.
 * `status` describes the latest upload; `hls_prefix` points at the output that plays now, so a video stays
 * playable while a replacement is transcoded. The AES key lives here and nowhere on a public path.
 */
export const videoMedia = pgTable(
  'video_media',
  {
    videoId: ref(() => videos.id, { onDelete: 'cascade' }).primaryKey(),
    status: text({ enum: videoMediaStatuses }).notNull(),
    /** 0–100 while transcoding. */
    progress: smallint().notNull().default(0),
    /** Why the last transcoding failed (shown to operators). */
    error: text(),
    /** The uploaded original in private storage. */
    sourceKey: text(),
    sourceName: text(),
    sourceBytes: bigint({ mode: 'number' }),
    /** Seconds, from ffprobe. */
    duration: doublePrecision(),
    /** Private-storage folder holding master.m3u8 and one folder per rendition; null until something plays. */
    hlsPrefix: text(),
    /** The AES-128 key the segments under hls_prefix are encrypted with (16 bytes). */
    keyBytes: bytea(),
    renditions: jsonb()
      .$type<Rendition[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /**
     * What the running (or last) transcoding makes, known once the source is probed: one ffmpeg pass encodes them
     * all, so `progress` applies to each.
     */
    plannedRenditions: jsonb()
      .$type<Rendition[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Public-storage key of the poster frame (WebP). */
    posterKey: text(),
    ...timestampsDefaultNow(),
    readyAt: timestamptz(),
  },
  // The operators' dashboard: transcodes that failed, newest first.
  (t) => [
    index('video_media_failed_idx')
      .on(t.updatedAt)
      .where(sql`${t.status} = 'failed'`),
  ],
)

/** Images members uploaded (avatars), re-encoded and stripped of metadata. */
export const uploads = pgTable('uploads', {
  ...memberOwned(),
  path: text().notNull(),
  width: integer().notNull(),
  height: integer().notNull(),
  bytes: integer().notNull(),
  createdAt: timestamptz().notNull().defaultNow(),
})

/**
 * Secrets of the media module that every process must share and nobody configured: the HMAC key of playback
 * URLs when MEDIA_SIGNING_SECRET is unset (demo, development), created once by whichever process asks first.
 */
export const mediaSecrets = pgTable('media_secrets', {
  name: text().primaryKey(),
  value: text().notNull(),
  createdAt: timestamptz().notNull().defaultNow(),
})
