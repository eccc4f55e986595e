import { envelope } from '#server/http/envelope.ts'
import { apiPlugin } from '#server/http/route.ts'
import { MemberProfile, UserInfo } from '#shared/api/members.ts'
import { MemberIdQuery, UpdateMemberInfoBody } from './members.schema.ts'
import type { MembersService } from './members.service.ts'

interface MembersRoutesOptions {
  members: MembersService
  /** GET /userinfo's answer: the profile with the member's VIP (composed by server/services.ts). */
  userInfo: (memberId: number) => Promise<UserInfo>
}

/** The member's own profile, its changes, and the staff view of any member. */
export const membersRoutes = apiPlugin({ tags: ['members'] }, (r, { members, userInfo }: MembersRoutesOptions) => {
  r.get(
    '/userinfo',
    { auth: 'required', summary: "The signed-in member's profile and VIP", response: envelope(UserInfo) },
    async (_request, memberId) => userInfo(memberId),
  )

  r.get(
    '/userinfoByMemberId',
    {
      auth: 'staff',
      permission: 'members.read',
      summary: "Any member's profile (staff only)",
      description: '403 for members without a staff role; 404 for an unknown member.',
      querystring: MemberIdQuery,
      response: envelope(MemberProfile),
    },
    async (request) => members.profileForStaff(request.query.member_id),
  )

  r.post(
    '/center/updateMemberInfo',
    {
      auth: 'required',
      summary: 'Change the nickname and/or the avatar',
      description:
        'nickname: 1–20 characters after trimming, no control characters (460). avatar: a URL /uploadImage returned to this member (461).',
      body: UpdateMemberInfoBody,
      response: envelope(MemberProfile),
      msg: '修改成功',
    },
    async (request, memberId) => members.updateInfo(memberId, request.body),
  )
})
