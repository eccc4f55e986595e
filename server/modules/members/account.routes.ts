import { z } from 'zod'
import { envelope } from '#server/http/envelope.ts'
import { apiPlugin } from '#server/http/route.ts'
import { signedOut } from '#server/http/session-cookie.ts'
import type { AuthService } from '#server/modules/auth/auth.service.ts'
import type { Bound } from '#server/use-cases/commerce-deps.ts'
import type { deleteMemberAccount } from '#server/use-cases/delete-member-account.ts'
import type { exportMemberData } from '#server/use-cases/export-member-data.ts'
import { AccountCodeBody } from '#shared/api/account.ts'

interface AccountRoutesOptions {
  account: {
    /** The auth module's account code (purpose `account`) to the member's own phone. */
    sendCode: AuthService['sendAccountCode']
    exportData: Bound<typeof exportMemberData>
    deleteAccount: Bound<typeof deleteMemberAccount>
  }
}

/**
 * A member's rights over their data (issue 10 §5, PIPL), from /mine: a JSON export of what we hold, and the
 * deletion of the account; each confirmed by a fresh SMS code to the member's own phone.
 */
export const accountRoutes = apiPlugin(
  { tags: ['members'], auth: 'required' },
  (r, { account }: AccountRoutesOptions) => {
    r.post(
      '/account/send_code',
      {
        summary: "Send a code to the member's own phone to confirm a data export or the account's deletion",
        description: 'Same limits as /send_code (430). 403 for a member without a phone (bind one first).',
        response: envelope(z.object({ phone: z.string() })),
        msg: '已发送验证码',
      },
      async (request, memberId) => account.sendCode(memberId, { ip: request.ip, log: request.log }),
    )

    r.post(
      '/account/export',
      {
        summary: 'Everything held about me as JSON (profile, orders, rights, progress, comments, points, sessions)',
        description: '405 wrong code, 406 expired or used code.',
        body: AccountCodeBody,
        response: envelope(z.record(z.string(), z.unknown())),
      },
      async (request, memberId) => account.exportData(memberId, request.body.code),
    )

    r.post(
      '/account/delete',
      {
        summary: 'Delete my account: personal data removed, orders kept anonymised, every session ended',
        description: '405 wrong code, 406 expired or used code, 403 for staff accounts.',
        body: AccountCodeBody,
        response: envelope(z.object({ deleted: z.boolean(), erased: z.record(z.string(), z.number()) })),
        msg: '账号已注销',
      },
      async (request, memberId) => {
        const deleted = await account.deleteAccount(memberId, request.body.code, request.log)
        // Every session ended: the page-render cookie goes too.
        signedOut(request)
        return deleted
      },
    )
  },
)
