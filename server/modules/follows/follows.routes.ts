import { apiPlugin } from '#server/http/route.ts'
import type { FollowsService } from './follows.service.ts'
import { TeacherQuery } from '#shared/api/catalogue.ts'
import { FollowBody, FollowStateResponse, TeacherWithFollowResponse } from './follows.schema.ts'

/** Following teachers (spec 7: POST /follow) and a teacher's page with the follow state (GET /teacher). */
export const followsRoutes = apiPlugin({ tags: ['follows'] }, (r, { follows }: { follows: FollowsService }) => {
  r.post(
    '/follow',
    {
      auth: 'required',
      summary:
        'Follow a teacher, or stop following when the member already does (toggle); answers the new state and the follower count',
      body: FollowBody,
      response: FollowStateResponse,
      msg: (state) => (state.followed ? '已关注' : '已取消关注'),
    },
    async (request, memberId) => follows.toggle(memberId, request.body.teacher_id),
  )

  r.get(
    '/teacher',
    {
      // Listed with the catalogue's reads in the API docs, where a client looks for it.
      tags: ['catalogue'],
      summary:
        'A teacher’s profile and courses, with the follower count and whether the signed-in member follows (POST /follow)',
      querystring: TeacherQuery,
      response: TeacherWithFollowResponse,
    },
    async (request, memberId) => follows.teacherProfile(request.query.id, memberId),
  )
})
