import { z } from 'zod'
import { envelope } from '#server/http/envelope.ts'
import { TeacherProfile } from '#shared/api/catalogue.ts'
import { BodyId } from '#shared/api/params.ts'

export const FollowBody = z.object({ teacher_id: BodyId })

export const FollowState = z.object({
  teacher_id: z.number().int(),
  followed: z.boolean().describe('Whether the signed-in member follows the teacher (false for anonymous visitors)'),
  follower_count: z.number().int(),
})
export type FollowState = z.infer<typeof FollowState>

/** GET /teacher: the catalogue's profile with the follow state of the signed-in member. */
export const TeacherWithFollow = TeacherProfile.extend({
  followed: FollowState.shape.followed,
  follower_count: FollowState.shape.follower_count,
})
export type TeacherWithFollow = z.infer<typeof TeacherWithFollow>

export const FollowStateResponse = envelope(FollowState)
export const TeacherWithFollowResponse = envelope(TeacherWithFollow)
