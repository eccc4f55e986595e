import { isNotNull, sql } from 'drizzle-orm'
import { check, index, pgTable, uniqueIndex } from 'drizzle-orm/pg-core'
import { courses, videos } from './catalogue.ts'
import { memberOwned } from './members.ts'
import { ref, timestamptz } from './columns.ts'

// Favourites, follows, comments and click statistics (issue 3, sections 4–6). Rules live in
// server/modules/{favourites,follows,comments,stats}.

/**
 * A member's favourite course or video: exactly one of the two ids is set. Toggling inserts or deletes the row,
 * so the unique indexes are what keep a double tap from making two.
 */
export const favourites = pgTable(
  'favourites',
  {
    ...memberOwned(),
    courseId: ref(() => courses.id, { onDelete: 'cascade' }),
    videoId: ref(() => videos.id, { onDelete: 'cascade' }),
    createdAt: timestamptz().notNull(),
  },
  (t) => [
    uniqueIndex('favourites_member_course_key').on(t.memberId, t.courseId).where(isNotNull(t.courseId)),
    uniqueIndex('favourites_member_video_key').on(t.memberId, t.videoId).where(isNotNull(t.videoId)),
    // The favourites list pages newest first per kind (cursor on id).
    index('favourites_member_courses_idx').on(t.memberId, t.id).where(isNotNull(t.courseId)),
    index('favourites_member_videos_idx').on(t.memberId, t.id).where(isNotNull(t.videoId)),
    // Every favourite of a member, newest first (recommendations start from them: listFavouriteTargets).
    index('favourites_member_idx').on(t.memberId, t.id),
    index('favourites_course_idx').on(t.courseId),
    index('favourites_video_idx').on(t.videoId),
    check('favourites_one_target_ck', sql`num_nonnulls(${t.courseId}, ${t.videoId}) = 1`),
  ],
)
