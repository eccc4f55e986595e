import type { Db } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { teacherExists, type CatalogueService } from '#server/modules/catalogue/catalogue.service.ts'
import { deleteFollow, findFollowCounts, insertFollow } from './follows.repository.ts'
import type { FollowState, TeacherWithFollow } from './follows.schema.ts'

const teacherGone = () => new AppError(Codes.NotFound, '讲师不存在')

/** Members following teachers (spec 7: POST /follow; the state also rides along GET /teacher). */
export function createFollowsService(deps: { db: Db; now: () => Date; catalogue: CatalogueService }) {
  const { db, now, catalogue } = deps

  async function counts(memberId: number | null, teacherId: number): Promise<FollowState> {
    const row = await findFollowCounts(db, memberId, teacherId)
    return { teacher_id: teacherId, followed: row.followed, follower_count: row.follower_count }
  }

  return {
    /** Follows the teacher, or stops following when the member already does; answers the new state. */
    async toggle(memberId: number, teacherId: number): Promise<FollowState> {
      if (!(await teacherExists(db, teacherId))) throw teacherGone()
      const added = await insertFollow(db, memberId, teacherId, now())
      if (!added && !(await deleteFollow(db, memberId, teacherId))) throw teacherGone()
      return counts(memberId, teacherId)
    },

    /** The follower count and whether the member (null: anonymous) follows; 404 for an unknown teacher. */
    async state(memberId: number | null, teacherId: number): Promise<FollowState> {
      const [exists, state] = await Promise.all([teacherExists(db, teacherId), counts(memberId, teacherId)])
      if (!exists) throw teacherGone()
      return state
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
