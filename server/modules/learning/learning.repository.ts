import { and, asc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '#server/db/database.ts'
import { preparedText, queryPrepared, type PreparedText } from '#server/db/prepared.ts'
import { deleteWhere } from '#server/db/rows.ts'
import { activeRightsJson } from '#server/modules/access/access.service.ts'
import { liveSessionCondition } from '#server/modules/sessions/session.service.ts'
import { playerPopups, popupClicks, studyProgress, videoNotes } from '#server/db/schema/learning.ts'

/** A video counts as finished once its position reaches this share of its length. */
const FINISHED_SHARE = 0.9

// ---- Progress ------------------------------------------------------------------------------------------------

/** A foreign key refused the row: the video (or member) it names is gone. */
function isMissingParent(err: unknown) {
  const e = err as { code?: string; cause?: { code?: string } }
  return e.code === '23503' || e.cause?.code === '23503'
}

export interface ProgressWrite {
  memberId: number
  videoId: number
  /** The video's course (the catalogue's lesson facts), copied onto the row for the per-course lists. */
  courseId: number
  /** The video's length in seconds as the catalogue has it; 0 while it has no media yet. */
  videoDuration: number
  /** Seconds as the player reported them (already floored, not negative). */
  position: number
  /** The player's idea of the length, used only while the video has none (no media yet). */
  clientDuration: number | null
  /** The preview end the member may not pass; null for full access. */
  limit: number | null
  now: Date
  /** The session the save comes with: the statement writes nothing unless it is live at `now`. */
  sessionId: number
  /** The player page view that sent the save and the save's number there; a lower number than stored is late. */
  order?: { view: number; seq: number }
}

/**
 * A save that arrived after a later save of the same player page view (a periodic save overtaken by the page-hide
 * beacon): it must not take the position back. Saves of another view, or without one, are never late.
 */
const lateSave = '(p.saved_by = excluded.saved_by and p.save_seq >= excluded.save_seq)'

/**
 * Saves a position in ONE statement: the position is clamped to the video's length and to the preview, and
 * finished_at is set the first time the position reaches 90%. A late save (`lateSave`) keeps the stored position,
 * but still marks the video finished if it reached 90%. Null when the video no longer exists; `session_gone` when
 * the member's session is no longer live (logged out on any instance, expired): the same statement checks it, so a
 * logout counts at once even where the token was remembered (progress-auth.ts), at no extra round trip.
 *
 * It is the hottest write, so it runs as a named (prepared) statement straight on the pool, and commits without
 * waiting for the WAL flush (`synchronous_commit` off for this transaction only, set inside the statement so it
 * costs no extra round trip): a database crash may lose the last fraction of a second of positions, never
 * consistency, and another save follows 10 s later. Together they triple the saves per second
 * (docs/decisions/2026-11-22-progress-saves.md). Money and everything else keep synchronous commits.
 */
const upsertProgressSql = `
  with relaxed as (select set_config('synchronous_commit', 'off', true))
  insert into study_progress as p
    (member_id, video_id, course_id, position, duration, finished_at, saved_by, save_seq, created_at, updated_at)
  select $1::int, $2::int, $7::int, v.pos, v.len,
    case when v.len > 0 and v.pos >= ${FINISHED_SHARE} * v.len then $5::timestamptz end,
    $10::int, $11::int, $5::timestamptz, $5::timestamptz
  from (
    select len, least($3::int, case when len > 0 then len else $3::int end, coalesce($4::int, $3::int)) as pos
    from (select case when $8::int > 0 then $8::int else coalesce($6::int, 0) end as len) x
  ) v
  cross join relaxed
  where ${liveSessionCondition('$9::int', '$5::timestamptz')}
  on conflict (member_id, video_id) do update set
    position = case when ${lateSave} then p.position else excluded.position end,
    duration = case when ${lateSave} then p.duration else excluded.duration end,
    finished_at = coalesce(p.finished_at, excluded.finished_at),
    saved_by = case when ${lateSave} then p.saved_by else excluded.saved_by end,
    save_seq = case when ${lateSave} then p.save_seq else excluded.save_seq end,
    updated_at = case when ${lateSave} then p.updated_at else excluded.updated_at end
  returning position, duration, finished_at, course_id`

interface PgQueryable {
  query<R>(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>
}

export async function upsertProgress(db: Db, w: ProgressWrite) {
  // The node-postgres pool (or client) under drizzle: drizzle's own execute cannot name a statement.
  const client = (db as unknown as { $client: PgQueryable }).$client
  type Row = { position: number; duration: number; finished_at: Date | null; course_id: number }
  let rows: Row[]
  try {
    ;({ rows } = await client.query<Row>({
      name: 'learning_upsert_progress',
      text: upsertProgressSql,
      values: [
        w.memberId,
        w.videoId,
        w.position,
        w.limit,
        w.now,
        w.clientDuration,
        w.courseId,
        w.videoDuration,
        w.sessionId,
        w.order?.view ?? null,
        w.order?.view === undefined ? null : w.order.seq,
      ],
    }))
  } catch (err) {
    if (isMissingParent(err)) return null
    throw err
  }
  const row = rows[0]
  // The select yields its one row unless the session condition failed.
  if (!row) return 'session_gone' as const
  return { position: row.position, duration: row.duration, finishedAt: row.finished_at, courseId: row.course_id }
}

export interface ProgressRow {
  videoId: number
  courseId: number
  position: number
  duration: number
  finishedAt: Date | null
  updatedAt: Date
}

const progressColumns = {
  videoId: studyProgress.videoId,
  courseId: studyProgress.courseId,
  position: studyProgress.position,
  duration: studyProgress.duration,
  finishedAt: studyProgress.finishedAt,
  updatedAt: studyProgress.updatedAt,
}

/** A member's progress in the videos of some courses. */
export async function listProgressInCourses(
  db: DbOrTx,
  memberId: number,
  courseIds: readonly number[],
): Promise<ProgressRow[]> {
  if (courseIds.length === 0) return []
  return db
    .select(progressColumns)
    .from(studyProgress)
    .where(and(eq(studyProgress.memberId, memberId), inArray(studyProgress.courseId, [...courseIds])))
}

export interface RecordCursor {
  updatedAt: string
  videoId: number
}

/**
 * A member's study history, newest first: the `limit` rows after `after`. Times come as the text the page shows
 * (`updatedAt`, ISO to the millisecond, as `Date#toISOString` writes it) and the cursor keeps (`updatedKey`, to the
 * microsecond): no Date is made for a row.
 */
export async function listStudyProgressPage(
  db: DbOrTx,
  memberId: number,
  after: RecordCursor | undefined,
  limit: number,
) {
  const rows = await queryPrepared<{
    video_id: number
    course_id: number
    position: number
    duration: number
    finished: boolean
    updated_at: string
    updated_key: string
  }>(db, studyPage(after !== undefined, limit), after ? [memberId, after.updatedAt, after.videoId] : [memberId])
  return rows.map((r) => ({
    videoId: r.video_id,
    courseId: r.course_id,
    position: r.position,
    duration: r.duration,
    finished: r.finished,
    updatedAt: r.updated_at,
    updatedKey: r.updated_key,
  }))
}

// The study record's pages, newest first, on the (member, updated_at, video) index. The key keeps microseconds, which
// survive the round trip through the cursor where a JavaScript Date would drop them. The page size is written into
// the text (one statement per size, first page or not; sizes are 2–51): with `limit $n` PostgreSQL's generic plan
// guesses a small share of the rows and, on a small table, walks the updated_at index filtering on the member
// (1.4 ms on the demo instead of 0.04).
const studyPageColumns = `select video_id, course_id, position, duration, finished_at is not null as finished,
    to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at,
    to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as updated_key
  from study_progress`
const studyPages = new Map<string, PreparedText>()

function studyPage(after: boolean, limit: number): PreparedText {
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new Error(`study page size ${limit}`)
  const key = `${after ? 'after' : 'first'}_${limit}`
  let statement = studyPages.get(key)
  if (!statement) {
    const cursor = after
      ? ' and (updated_at < $2::timestamptz or (updated_at = $2::timestamptz and video_id < $3))'
      : ''
    statement = preparedText(
      `learning_study_page_${key}`,
      `${studyPageColumns} where member_id = $1${cursor} order by updated_at desc, video_id desc limit ${limit}`,
    )
    studyPages.set(key, statement)
  }
  return statement
}

/**
 * A member's progress in some courses: finished videos, and the video and position they watched last, and when.
 * One statement on the (member, course) index; every course they started comes with `/ke1`'s `findAlbumReads`.
 */
export async function listCourseProgress(db: DbOrTx, memberId: number, courseIds: readonly number[]) {
  if (courseIds.length === 0) return []
  const rows = await queryPrepared<{
    course_id: number
    finished_count: number
    started_count: number
    watched_share: number
    last_vid: number
    last_position: number
    last_at: Date | string
  }>(db, courseProgressIn, [memberId, courseIds])
  return rows.map((r) => ({
    courseId: Number(r.course_id),
    finishedCount: Number(r.finished_count),
    /** Videos started (a saved position), finished ones included. */
    startedCount: Number(r.started_count),
    /** Videos watched, in videos: a finished one counts 1, another its watched share of its length. */
    watchedShare: Number(r.watched_share),
    lastVid: Number(r.last_vid),
    lastPosition: Number(r.last_position),
    lastAt: new Date(r.last_at),
  }))
}

// Hot (/ke1, the course page): written once as text, for some courses and (in `albumStatement`) every course.
const courseProgressSelect = `select course_id,
    count(*) filter (where finished_at is not null)::int as finished_count,
    count(*)::int as started_count,
    sum(case when finished_at is not null then 1
      when duration > 0 then least(position::float8 / duration, 1) else 0 end)::float8 as watched_share,
    max(updated_at) as last_at,
    (array_agg(video_id order by updated_at desc, video_id desc))[1] as last_vid,
    (array_agg(position order by updated_at desc, video_id desc))[1] as last_position
  from study_progress`
const courseProgressIn = preparedText(
  'learning_course_progress_in',
  `${courseProgressSelect} where member_id = $1 and course_id = any($2::int[]) group by course_id`,
)

export type CourseProgressRow = Awaited<ReturnType<typeof listCourseProgress>>[number]

// The purchased list (/ke1) in one statement: the member's progress in every course they started, and their rights
// (the access module's SQL), each as one json value of the single row.
const albumStatement = preparedText(
  'learning_album',
  `select
    (select coalesce(json_agg(json_build_array(p.course_id, p.finished_count, p.started_count, p.watched_share,
        p.last_at, p.last_vid, p.last_position)), '[]')
      from (${courseProgressSelect} where member_id = $1 group by course_id) p) as progress,
    ${activeRightsJson('$1', '$2')} as rights`,
)

/**
 * What the purchased list (/ke1) reads, in one statement: the member's progress per course they started (as
 * `listCourseProgress`), and their rights that count at `at` (the access module's `activeRightsJson`, unread).
 */
export async function findAlbumReads(db: DbOrTx, memberId: number, at: Date) {
  type Progress = [number, number, number, number, string, number, number]
  const [row] = await queryPrepared<{ progress: Progress[]; rights: unknown }>(db, albumStatement, [
    memberId,
    at.toISOString(),
  ])
  const progress = row!.progress.map(
    ([courseId, finishedCount, startedCount, watchedShare, lastAt, lastVid, lastPosition]): CourseProgressRow => ({
      courseId,
      finishedCount,
      startedCount,
      watchedShare,
      lastVid,
      lastPosition,
      lastAt: new Date(lastAt),
    }),
  )
  return { progress, rights: row!.rights }
}

/** The courses a member has watched a video of. */
export async function listStartedCourseIds(db: DbOrTx, memberId: number) {
  const rows = await db
    .selectDistinct({ courseId: studyProgress.courseId })
    .from(studyProgress)
    .where(eq(studyProgress.memberId, memberId))
  return rows.map((r) => r.courseId)
}

// ---- Notes ---------------------------------------------------------------------------------------------------

/** Adds a note (`second` already kept within the video's length); null when the video no longer exists. */
export async function insertNote(
  db: DbOrTx,
  note: { memberId: number; videoId: number; second: number; content: string; now: Date },
) {
  try {
    const [row] = await db
      .insert(videoNotes)
      .values({
        memberId: note.memberId,
        videoId: note.videoId,
        second: note.second,
        content: note.content,
        createdAt: note.now,
      })
      .returning({
        id: videoNotes.id,
        second: videoNotes.second,
        content: videoNotes.content,
        createdAt: videoNotes.createdAt,
      })
    return row ?? null
  } catch (err) {
    if (isMissingParent(err)) return null
    throw err
  }
}

export async function countNotes(db: DbOrTx, memberId: number, videoId: number) {
  return db.$count(videoNotes, and(eq(videoNotes.memberId, memberId), eq(videoNotes.videoId, videoId)))
}

/** A member's notes on a video, in the order of the video. */
export async function listNotes(db: DbOrTx, memberId: number, videoId: number, limit: number) {
  return db
    .select({
      id: videoNotes.id,
      second: videoNotes.second,
      content: videoNotes.content,
      createdAt: videoNotes.createdAt,
    })
    .from(videoNotes)
    .where(and(eq(videoNotes.memberId, memberId), eq(videoNotes.videoId, videoId)))
    .orderBy(asc(videoNotes.second), asc(videoNotes.id))
    .limit(limit)
}

/** Deletes a note of this member; false when they have no note with that id. */
export async function deleteNote(db: DbOrTx, memberId: number, id: number) {
  return (await deleteWhere(db, videoNotes, and(eq(videoNotes.id, id), eq(videoNotes.memberId, memberId)))) > 0
}

// ---- Player popups -------------------------------------------------------------------------------------------

/** Active popups of a video and of its course (null: only the video's), in the order they appear. */
export async function listPopupsForVideo(db: DbOrTx, videoId: number, courseId: number | null) {
  return db
    .select({
      id: playerPopups.id,
      atSecond: playerPopups.atSecond,
      title: playerPopups.title,
      content: playerPopups.content,
      imageUrl: playerPopups.imageUrl,
      link: playerPopups.link,
    })
    .from(playerPopups)
    .where(
      and(
        eq(playerPopups.active, true),
        or(
          eq(playerPopups.videoId, videoId),
          courseId === null ? undefined : and(isNotNull(playerPopups.courseId), eq(playerPopups.courseId, courseId)),
        ),
      ),
    )
    .orderBy(asc(playerPopups.atSecond), asc(playerPopups.id))
    .limit(50)
}

/** Counts a click on an active popup in one statement; false when there is no such popup. */
export async function insertPopupClick(db: DbOrTx, popupId: number, memberId: number | null, at: Date) {
  const result = await db.execute(
    sql`insert into ${popupClicks} (popup_id, member_id, created_at)
        select id, ${memberId}, ${at}::timestamptz from ${playerPopups} where id = ${popupId} and active`,
  )
  return (result.rowCount ?? 0) > 0
}

export async function insertPopups(db: DbOrTx, rows: (typeof playerPopups.$inferInsert)[]) {
  if (rows.length === 0) return
  await db.insert(playerPopups).values(rows)
}
// ---- Watched share for the refund rule (server/modules/refunds) ---------------------------------------------

/** The member's saved positions in these courses, and whether each video was finished. */
export async function findWatchedPositions(db: DbOrTx, memberId: number, courseIds: number[]) {
  if (courseIds.length === 0) return []
  return db
    .select({
      videoId: studyProgress.videoId,
      position: studyProgress.position,
      finished: sql<boolean>`${studyProgress.finishedAt} is not null`,
    })
    .from(studyProgress)
    .where(and(eq(studyProgress.memberId, memberId), inArray(studyProgress.courseId, courseIds)))
}
