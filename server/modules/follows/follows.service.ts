import type { Db } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { CatalogueService } from '#server/modules/catalogue/catalogue.service.ts'
import { deleteFollow, findFollowState, insertFollow } from './follows.repository.ts'
import type { FollowState, TeacherWithFollow } from './follows.schema.ts'

const teacherGone = () => new AppError(Codes.NotFound, '讲师不存在')

/** Members following teachers (spec 7: POST /follow; the state also rides along GET /teacher). */
export function createFollowsService(deps: { db: Db; now: () => Date; catalogue: CatalogueService }) {
  const { db, now, catalogue } = deps

  async function state(memberId: number | null, teacherId: number): Promise<FollowState> {
    const row = await findFollowState(db, memberId, teacherId)
    if (!row) throw teacherGone()
    return { teacher_id: teacherId, followed: row.followed, follower_count: row.follower_count }
  }

  return {
    /** Follows the teacher, or stops following when the member already does; answers the new state. */
    async toggle(memberId: number, teacherId: number): Promise<FollowState> {
      const added = await insertFollow(db, memberId, teacherId, now())
      if (!added && !(await deleteFollow(db, memberId, teacherId))) throw teacherGone()
      return state(memberId, teacherId)
    },

    state,

    /** The teacher's public profile (cached by the catalogue) with this member's follow state. */
    async teacherProfile(teacherId: number, memberId: number | null): Promise<TeacherWithFollow> {
      const [profile, follow] = await Promise.all([catalogue.teacher(teacherId), state(memberId, teacherId)])
      return { ...profile, followed: follow.followed, follower_count: follow.follower_count }
    },
  }
}

export type FollowsService = ReturnType<typeof createFollowsService>
