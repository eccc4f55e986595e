import { and, asc, desc, eq, isNull, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { eqIfGiven } from '#server/db/rows.ts'
import { commentReports, comments } from '#server/db/schema/comments.ts'
import type { CommentReportReason } from '#shared/comment-report-reasons.ts'
import type { ReportSortKey } from '#shared/api/admin-comments.ts'

// Learners' reports of comments and the console's queue of reported comments.

/** Adds a member's report of a comment; false when they reported it before (one per member per comment). */
export async function insertReport(
  db: DbOrTx,
  r: { commentId: number; memberId: number; reason: CommentReportReason; detail: string | null; at: Date },
) {
  const rows = await db
    .insert(commentReports)
    .values({ commentId: r.commentId, memberId: r.memberId, reason: r.reason, detail: r.detail, createdAt: r.at })
    .onConflictDoNothing()
    .returning({ id: commentReports.commentId })
  return rows.length > 0
}

/** A moderation decision clears the comment's open reports. */
export async function resolveReports(db: DbOrTx, commentId: number, at: Date) {
  await db
    .update(commentReports)
    .set({ resolvedAt: at })
    .where(and(eq(commentReports.commentId, commentId), isNull(commentReports.resolvedAt)))
}

export interface ReportFilter {
  openOnly: boolean
  courseId?: number
}

const open = sql<number>`count(*) filter (where ${commentReports.resolvedAt} is null)::int`
const total = sql<number>`count(*)::int`
const last = sql<Date>`max(${commentReports.createdAt})`
const reasons = sql<CommentReportReason[]>`array_agg(distinct ${commentReports.reason})`

function where(f: ReportFilter): SQL | undefined {
  return and(f.openOnly ? isNull(commentReports.resolvedAt) : undefined, eqIfGiven(comments.courseId, f.courseId))
}

/** Reported comments with their report counts (open and all), reasons and latest report; ties by comment id. */
export async function searchReported(
  db: DbOrTx,
  f: ReportFilter,
  sort: { key: ReportSortKey; desc: boolean },
  offset: number,
  limit: number,
) {
  const dir = sort.desc ? desc : asc
  const key = sort.key === 'reports' ? (f.openOnly ? open : total) : last
  return db
    .select({ comment: comments, open, total, last, reasons })
    .from(commentReports)
    .innerJoin(comments, eq(comments.id, commentReports.commentId))
    .where(where(f))
    .groupBy(comments.id)
    .orderBy(dir(key), desc(comments.id))
    .offset(offset)
    .limit(limit)
}

export async function countReported(db: DbOrTx, f: ReportFilter) {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${commentReports.commentId})::int` })
    .from(commentReports)
    .innerJoin(comments, eq(comments.id, commentReports.commentId))
    .where(where(f))
  return row?.n ?? 0
}

/** The latest reports' details of these comments (at most `per` each), newest first. */
export async function reportDetails(db: DbOrTx, commentIds: number[], per = 3) {
  if (commentIds.length === 0) return []
  return db
    .execute<{ comment_id: number; reason: CommentReportReason; detail: string | null }>(
      sql`
    select comment_id, reason, detail from (
      select r.comment_id, r.reason, r.detail,
        row_number() over (partition by r.comment_id order by r.created_at desc) as n
      from ${commentReports} r
      where r.comment_id in (${sql.join(
        commentIds.map((id) => sql`${id}`),
        sql`, `,
      )}) and r.detail is not null
    ) x where n <= ${per}`,
    )
    .then((r) => r.rows)
}
