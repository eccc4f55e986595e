import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { requireRole } from '#server/http/auth.ts'
import { envelope, ok } from '#server/http/envelope.ts'
import { MemberProfile } from '#shared/api/members.ts'
import { MemberIdQuery, UpdateMemberInfoBody } from './members.schema.ts'
import type { MembersService } from './members.service.ts'

/** The member's own profile, its changes, and the staff view of any member. */
export const membersRoutes: FastifyPluginAsyncZod<{ members: MembersService }> = async (app, { members }) => {
  app.get(
    '/userinfo',
    {
      config: { auth: 'required' },
      schema: {
        tags: ['members'],
        summary: "The signed-in member's profile",
        security: [{ token: [] }],
        response: { 200: envelope(MemberProfile) },
      },
    },
    async (request) => ok(await members.profile(requireRole(request).memberId)),
  )

  app.get(
    '/userinfoByMemberId',
    {
      config: { auth: 'staff' },
      schema: {
        tags: ['members'],
        summary: "Any member's profile (staff only)",
        description: '403 for members without a staff role; 404 for an unknown member.',
        security: [{ token: [] }],
        querystring: MemberIdQuery,
        response: { 200: envelope(MemberProfile) },
      },
    },
    async (request) => ok(await members.profileForStaff(request.query.member_id)),
  )

  app.post(
    '/center/updateMemberInfo',
    {
      config: { auth: 'required' },
      schema: {
        tags: ['members'],
        summary: 'Change the nickname and/or the avatar',
        description:
          'nickname: 1–20 characters after trimming, no control characters (460). avatar: a URL /uploadImage returned to this member (461).',
        security: [{ token: [] }],
        body: UpdateMemberInfoBody,
        response: { 200: envelope(MemberProfile) },
      },
    },
    async (request) => ok(await members.updateInfo(requireRole(request).memberId, request.body), '修改成功'),
  )
}
