import { and, asc, desc, eq, inArray, isNotNull, lt, or, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '#server/db/database.ts'
import { courses, systemCourseItems, teachers, videos } from '#server/db/schema/catalogue.ts'
import { playerPopups, popupClicks, studyProgress, videoNotes } from '#server/db/schema/learning.ts'

/** A video counts as finished once its position reaches this share of its length. */
export const FINISHED_SHARE = 0.9

// ---- Progress ------------------------------------------------------------------------------------------------

export interface ProgressWrite {
  memberId: number
  videoId: number
  /** Seconds as the player reported them (already floored, not negative). */
  position: number
  /** The player's idea of the length, used only while the video row has none (no media yet). */
  clientDuration: number | null
  /** The preview end the member may not pass; null for full access. */
  limit: number | null
  now: Date
}

/**
 * Saves a position in ONE statement: the video's length and course come from the videos row inside the insert,
 * the position is clamped to that length and to the preview, and finished_at is set the first time the position
 * reaches 90%. Null when the video does not exist.
 *
 * It is the hottest write, so it runs as a named (prepared) statement straight on the pool, and commits without
 * waiting for the WAL flush (`synchronous_commit` off for this transaction only, set inside the statement so it
 * costs no extra round trip): a database crash may lose the last fraction of a second of positions, never
 * consistency, and another save follows 10 s later. Together they triple the saves per second
 * (docs/decisions/2026-11-22-progress-saves.md). Money and everything else keep synchronous commits.
 */
const upsertProgressSql = `
  with relaxed as (select set_config('synchronous_commit', 'off', true))
  insert into study_progress as p (member_id, video_id, course_id, position, duration, finished_at, created_at, updated_at)
  select $1::int, v.id, v.course_id, v.pos, v.len,
    case when v.len > 0 and v.pos >= ${FINISHED_SHARE} * v.len then $5::timestamptz end, $5::timestamptz, $5::timestamptz
  from (
    select id, course_id, len, least($3::int, case when len > 0 then len else $3::int end, coalesce($4::int, $3::int)) as pos
    from (
      select id, course_id, case when duration_seconds > 0 then duration_seconds else coalesce($6::int, 0) end as len
      from videos where id = $2::int
    ) x
  ) v
  cross join relaxed
  on conflict (member_id, video_id) do update set
    position = excluded.position,
    duration = excluded.duration,
    finished_at = coalesce(p.finished_at, excluded.finished_at),
    updated_at = excluded.updated_at
  returning position, duration, finished_at, course_id`

interface PgQueryable {
  query<R>(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>
}

export async function upsertProgress(db: Db, w: ProgressWrite) {
  // The node-postgres pool (or client) under drizzle: drizzle's own execute cannot name a statement.
  const client = (db as unknown as { $client: PgQueryable }).$client
  const { rows } = await client.query<{
    position: number
    duration: number
    finished_at: Date | null
    course_id: number
  }>({
    name: 'learning_upsert_progress',
    text: upsertProgressSql,
    values: [w.memberId, w.videoId, w.position, w.limit, w.now, w.clientDuration],
  })
  const row = rows[0]
  if (!row) return null
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

/** The course of a video, and (for a member) their progress in every video of that course: one query. */
export async function findVideoCourseProgress(db: DbOrTx, memberId: number | null, videoId: number) {
  if (memberId === null) {
    const [row] = await db.select({ courseId: videos.courseId }).from(videos).where(eq(videos.id, videoId)).limit(1)
    return row ? { courseId: row.courseId, progress: [] as ProgressRow[] } : null
  }
  const rows = await db
    .select({ courseId: videos.courseId, p: progressColumns })
    .from(videos)
    .leftJoin(studyProgress, and(eq(studyProgress.courseId, videos.courseId), eq(studyProgress.memberId, memberId)))
    .where(eq(videos.id, videoId))
  if (rows.length === 0) return null
  return { courseId: rows[0]!.courseId, progress: rows.flatMap((r) => (r.p ? [r.p] : [])) }
}

/** A member's progress in the videos of some courses. */
export async function listProgressInCourses(db: DbOrTx, memberId: number, courseIds: number[]): Promise<ProgressRow[]> {
  if (courseIds.length === 0) return []
  return db
    .select(progressColumns)
    .from(studyProgress)
    .where(and(eq(studyProgress.memberId, memberId), inArray(studyProgress.courseId, courseIds)))
}

export interface RecordCursor {
  updatedAt: string
  videoId: number
}

/**
 * A member's study history, newest first, with the video's and course's titles: the page after `after`.
 * Videos of courses that are no longer published drop out.
 */
export async function listStudyRecord(db: DbOrTx, memberId: number, after: RecordCursor | undefined, limit: number) {
  return db
    .select({
      videoId: studyProgress.videoId,
      position: studyProgress.position,
      duration: studyProgress.duration,
      finishedAt: studyProgress.finishedAt,
      updatedAt: studyProgress.updatedAt,
      // Microseconds survive the round trip through the cursor; a JavaScript Date would drop them.
      updatedKey: sql<string>`to_char(${studyProgress.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      videoTitle: videos.title,
      courseId: courses.id,
      courseTitle: courses.title,
      courseCover: courses.coverUrl,
      courseType: courses.type,
    })
    .from(studyProgress)
    .innerJoin(videos, eq(videos.id, studyProgress.videoId))
    .innerJoin(courses, eq(courses.id, studyProgress.courseId))
    .where(
      and(
        eq(studyProgress.memberId, memberId),
        eq(courses.status, 'published'),
        after
          ? or(
              lt(studyProgress.updatedAt, sql`${after.updatedAt}::timestamptz`),
              and(
                eq(studyProgress.updatedAt, sql`${after.updatedAt}::timestamptz`),
                lt(studyProgress.videoId, after.videoId),
              ),
            )
          : undefined,
      ),
    )
    .orderBy(desc(studyProgress.updatedAt), desc(studyProgress.videoId))
    .limit(limit)
}

/**
 * Course cards with the member's progress in each: the videos of the course, how many they finished, and the
 * video and position they watched last. `courseIds` chooses the courses; `started` adds the free (and, for a VIP
 * member, the VIP-free) courses the member has started. Published courses only. One query.
 */
export async function listCoursesWithProgress(
  db: DbOrTx,
  memberId: number,
  courseIds: number[],
  started: { free: boolean; vipFree: boolean } = { free: false, vipFree: false },
) {
  const ids = courseIds.length > 0 ? courseIds : [0]
  const result = await db.execute<{
    id: number
    type: string
    title: string
    subtitle: string
    cover_url: string
    price_fen: number
    original_price_fen: number | null
    is_free: boolean
    vip_free: boolean
    student_count: number
    live_starts_at: Date | string | null
    teacher_name: string | null
    video_count: number
    finished_count: number
    last_vid: number | null
    last_position: number | null
    last_at: Date | string | null
  }>(sql`
    with mine as (
      select course_id,
        count(*) filter (where finished_at is not null)::int as finished_count,
        max(updated_at) as last_at,
        (array_agg(video_id order by updated_at desc, video_id desc))[1] as last_vid,
        (array_agg(position order by updated_at desc, video_id desc))[1] as last_position
      from ${studyProgress}
      where member_id = ${memberId}
      group by course_id
    )
    select c.id, c.type, c.title, c.subtitle, c.cover_url, c.price_fen, c.original_price_fen, c.is_free, c.vip_free,
      c.student_count, c.live_starts_at, t.name as teacher_name,
      (select count(*)::int from ${videos} v where v.course_id = c.id) as video_count,
      coalesce(m.finished_count, 0) as finished_count, m.last_vid, m.last_position, m.last_at
    from ${courses} c
    left join ${teachers} t on t.id = c.teacher_id
    left join mine m on m.course_id = c.id
    where c.status = 'published'
      and (c.id in (${sql.join(
        ids.map((n) => sql`${n}::int`),
        sql`, `,
      )})
        ${started.free ? sql`or (c.is_free and m.course_id is not null)` : sql``}
        ${started.vipFree ? sql`or (c.vip_free and m.course_id is not null)` : sql``})`)
  return result.rows.map((r) => ({
    ...r,
    live_starts_at: r.live_starts_at === null ? null : new Date(r.live_starts_at),
    last_at: r.last_at === null ? null : new Date(r.last_at),
  }))
}

/**
 * The published system courses a member has joined: entitled to (`entitledIds`), or started (watched a video of
 * the system course itself or of one of its courses).
 */
export async function listJoinedSystemCourseIds(db: DbOrTx, memberId: number, entitledIds: number[]) {
  const ids = entitledIds.length > 0 ? entitledIds : [0]
  const rows = await db
    .select({ id: courses.id })
    .from(courses)
    .where(
      and(
        eq(courses.type, 'system'),
        eq(courses.status, 'published'),
        or(
          inArray(courses.id, ids),
          sql`exists (
            select 1 from ${studyProgress} p
            where p.member_id = ${memberId}
              and (p.course_id = ${courses.id}
                or p.course_id in (select ${systemCourseItems.courseId} from ${systemCourseItems} where ${systemCourseItems.systemCourseId} = ${courses.id}))
          )`,
        ),
      ),
    )
    .orderBy(asc(courses.id))
  return rows.map((r) => r.id)
}

// ---- Notes ---------------------------------------------------------------------------------------------------

/** Adds a note (its second kept within the video's length); null when the video does not exist. */
export async function insertNote(
  db: DbOrTx,
  note: { memberId: number; videoId: number; second: number; content: string; now: Date },
) {
  const result = await db.execute<{ id: number; second: number; content: string; created_at: Date | string }>(sql`
    insert into ${videoNotes} (member_id, video_id, second, content, created_at)
    select ${note.memberId}, id, least(${note.second}::int, case when duration_seconds > 0 then duration_seconds else ${note.second}::int end),
      ${note.content}, ${note.now}::timestamptz
    from ${videos} where id = ${note.videoId}
    returning id, second, content, created_at`)
  const row = result.rows[0]
  return row
    ? { id: Number(row.id), second: Number(row.second), content: row.content, createdAt: new Date(row.created_at) }
    : null
}

export async function countNotes(db: DbOrTx, memberId: number, videoId: number) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(videoNotes)
    .where(and(eq(videoNotes.memberId, memberId), eq(videoNotes.videoId, videoId)))
  return row?.n ?? 0
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
  const rows = await db
    .delete(videoNotes)
    .where(and(eq(videoNotes.id, id), eq(videoNotes.memberId, memberId)))
    .returning({ id: videoNotes.id })
  return rows.length > 0
}

// ---- Player popups -------------------------------------------------------------------------------------------

/** Active popups of a video and of its course, in the order they appear. */
export async function listPopupsForVideo(db: DbOrTx, videoId: number) {
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
          and(
            isNotNull(playerPopups.courseId),
            sql`${playerPopups.courseId} = (select course_id from ${videos} where id = ${videoId})`,
          ),
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

// ---- Live ----------------------------------------------------------------------------------------------------

/** The stream URL of a live course (null when none is set or the course is not a published live course). */
export async function findLivePullUrl(db: DbOrTx, courseId: number) {
  const [row] = await db
    .select({ url: courses.livePullUrl })
    .from(courses)
    .where(and(eq(courses.id, courseId), eq(courses.type, 'live'), eq(courses.status, 'published')))
    .limit(1)
  return row?.url ?? null
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
