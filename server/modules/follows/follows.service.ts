import type { Db } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { teacherFollowerCount, type CatalogueService } from '#server/modules/catalogue/catalogue.service.ts'
import { deleteFollow, findFollowing, insertFollow } from './follows.repository.ts'
import type { FollowState, TeacherWithFollow } from './follows.schema.ts'

const teacherGone = () => new AppError(Codes.NotFound, '讲师不存在')

/** Members following teachers (spec 7: POST /follow; the state also rides along GET /teacher). */
export function createFollowsService(deps: { db: Db; now: () => Date; catalogue: CatalogueService }) {
  const { db, now, catalogue } = deps

  /** The follower count (the catalogue keeps it) and whether this member follows; 404 for an unknown teacher. */
  async function counts(memberId: number | null, teacherId: number): Promise<FollowState> {
    const [count, followed] = await Promise.all([
      teacherFollowerCount(db, teacherId),
      memberId === null ? false : findFollowing(db, memberId, teacherId),
    ])
    if (count === null) throw teacherGone()
    return { teacher_id: teacherId, followed, follower_count: count }
  }

  return {
    /** Follows the teacher, or stops following when the member already does; answers the new state. */
    async toggle(memberId: number, teacherId: number): Promise<FollowState> {
      if ((await teacherFollowerCount(db, teacherId)) === null) throw teacherGone()
      const added = await insertFollow(db, memberId, teacherId, now())
      if (!added && !(await deleteFollow(db, memberId, teacherId))) throw teacherGone()
      return counts(memberId, teacherId)
    },

    /** The follower count and whether the member (null: anonymous) follows; 404 for an unknown teacher. */
    async state(memberId: number | null, teacherId: number): Promise<FollowState> {
      return counts(memberId, teacherId)
    },

    /** The teacher's public profile (404 when unknown) with this member's follow state. */
    async teacherProfile(teacherId: number, memberId: number | null): Promise<TeacherWithFollow> {
      const [profile, follow] = await Promise.all([catalogue.teacher(teacherId), counts(memberId, teacherId)])
      return { ...profile, followed: follow.followed, follower_count: follow.follower_count }
    },
  }
}

export type FollowsService = ReturnType<typeof createFollowsService>

/** The teachers a member follows: data export and account deletion (issue 10 §5). */
export {
  deleteMemberFollows as eraseMemberFollows,
  selectMemberFollows as followsForExport,
} from './follows-privacy.repository.ts'
