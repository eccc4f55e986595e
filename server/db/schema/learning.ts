import { isNotNull, sql } from 'drizzle-orm'
import { boolean, check, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { courses, videos } from './catalogue.ts'
import { memberOwned, members } from './members.ts'
import { cascadeRef, identity, ownedBy, ref, timestamps, timestamptz } from './columns.ts'

/**
 * Where a member stopped in a video (resume on any device) and whether they finished it (90%). One row per member
 * and video, written by one upsert every ~10 s while they watch: the hottest write of the product. `course_id`
 * is copied from the video so the per-course lists need no join through videos.
 */
export const studyProgress = pgTable(
  'study_progress',
  {
    memberId: cascadeRef(() => members.id),
    videoId: cascadeRef(() => videos.id),
    courseId: cascadeRef(() => courses.id),
    /** Seconds from the start, clamped to the video's length and to the preview the member may watch. */
    position: integer().notNull().default(0),
    /** The video's length in seconds when the position was saved. */
    duration: integer().notNull().default(0),
    /** The first time the position reached 90% of the length; stays set when they watch it again. */
    finishedAt: timestamptz(),
    /**
     * The player page view that saved the position, and the save's number there: a save of the same view with a
     * lower number arrived late and is not taken (a periodic save overtaken by the page-hide beacon).
     */
    savedBy: integer(),
    saveSeq: integer(),
    ...timestamps(),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.videoId] }),
    index('study_progress_member_updated_idx').on(t.memberId, t.updatedAt.desc(), t.videoId.desc()),
    index('study_progress_member_course_idx').on(t.memberId, t.courseId),
    // The operators' dashboard: who watched in a period, read from the index alone (the member is in it). Updates
    // already change updated_at (indexed above), so they are never HOT; this adds one index entry per save.
    index('study_progress_updated_member_idx').on(t.updatedAt, t.memberId),
  ],
)

/** A member's own note at a second of a video; only its author sees it. */
export const videoNotes = pgTable(
  'video_notes',
  {
    ...memberOwned(),
    videoId: cascadeRef(() => videos.id),
    second: integer().notNull(),
    /** Plain text, rendered escaped. */
    content: text().notNull(),
    createdAt: timestamptz().notNull(),
  },
  (t) => [index('video_notes_member_video_idx').on(t.memberId, t.videoId, t.second)],
)

/**
 * A card the player shows at `at_second` of a video, or of every video of a course (a sign-up form, a coupon, a
 * group QR code). Operators configure them; a click is counted in popup_clicks.
 */
export const playerPopups = pgTable(
  'player_popups',
  {
    id: identity(),
    videoId: ref(() => videos.id, { onDelete: 'cascade' }),
    courseId: ref(() => courses.id, { onDelete: 'cascade' }),
    atSecond: integer().notNull(),
    title: text().notNull(),
    content: text().notNull().default(''),
    imageUrl: text(),
    /** An in-site path ("/vip") or an http(s) URL; anything else is never sent to the browser. */
    link: text(),
    active: boolean().notNull().default(true),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    index('player_popups_video_idx').on(t.videoId).where(isNotNull(t.videoId)),
    index('player_popups_course_idx').on(t.courseId).where(isNotNull(t.courseId)),
    check('player_popups_target', sql`${t.videoId} is not null or ${t.courseId} is not null`),
  ],
)

export const popupClicks = pgTable(
  'popup_clicks',
  {
    ...ownedBy('popupId', () => playerPopups.id),
    memberId: ref(() => members.id, { onDelete: 'set null' }),
    createdAt: timestamptz().notNull(),
  },
  (t) => [index('popup_clicks_popup_idx').on(t.popupId)],
)
