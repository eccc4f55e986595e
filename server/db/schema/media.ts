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
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { videos } from './catalogue.ts'

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
export const videoMedia = pgTable('video_media', {
  videoId: integer()
    .primaryKey()
    .references(() => videos.id, { onDelete: 'cascade' }),
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
  /** Public-storage key of the poster frame (WebP). */
  posterKey: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  readyAt: timestamp({ withTimezone: true }),
})

export const jobStatuses = ['queued', 'running', 'done', 'failed'] as const
export type JobStatus = (typeof jobStatuses)[number]

/**
 * The durable job queue (server/jobs). A worker claims a job with FOR UPDATE SKIP LOCKED and holds it by a lease
 * it renews; a job whose lease ran out (its process died) is claimed again.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    kind: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    status: text({ enum: jobStatuses }).notNull().default('queued'),
    /** At most one queued or running job per key (e.g. one transcoding per video). */
    singletonKey: text(),
    attempts: integer().notNull().default(0),
    maxAttempts: integer().notNull().default(3),
    runAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lockedBy: text(),
    lockedUntil: timestamp({ withTimezone: true }),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('jobs_claim_idx')
      .on(t.runAt, t.id)
      .where(sql`${t.status} in ('queued', 'running')`),
    uniqueIndex('jobs_singleton_key')
      .on(t.singletonKey)
      .where(sql`${t.status} in ('queued', 'running')`),
  ],
)
