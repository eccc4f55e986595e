import { z } from 'zod'
import { hashToken } from '#server/http/auth.ts'
import { envelope } from '#server/http/envelope.ts'
import { apiPlugin } from '#server/http/route.ts'
import type { StepUp } from '#server/http/step-up.ts'
import type { AuthService } from './auth.service.ts'

const StepUpBody = z.object({ code: z.string().trim().min(1, { error: '请输入验证码' }).max(10) })
const StepUpProof = z.object({ proof: z.string(), expires_in: z.number().int() })
const SentTo = z.object({ phone: z.string() })

interface StepUpRoutesOptions {
  auth: AuthService
  stepUp: StepUp
}

/**
 * Step-up for sensitive console actions (refund approval, role changes, exports): a fresh SMS code to the staff
 * member's own phone, exchanged for a short-lived proof bound to this session, sent back in `X-Step-Up`.
 */
export const stepUpRoutes = apiPlugin(
  { tags: ['admin'], auth: 'staff' },
  (r, { auth, stepUp }: StepUpRoutesOptions) => {
    r.post(
      '/admin/step-up/send_code',
      {
        summary: "Send a confirmation code to the signed-in staff member's own phone",
        description: 'Same limits as /send_code (430). 403 for a member without a staff role or without a phone.',
        response: envelope(SentTo),
        msg: '已发送验证码',
      },
      async (request, memberId) => auth.sendStepUpCode(memberId, { ip: request.ip, log: request.log }),
    )

    r.post(
      '/admin/step-up',
      {
        summary: 'Confirm the code: a proof for sensitive actions of this session, valid for 5 minutes',
        description: '405 wrong code, 406 expired or used code. Send the proof in the X-Step-Up header.',
        body: StepUpBody,
        response: envelope(StepUpProof),
        msg: '验证成功',
      },
      async (request, memberId) => {
        await auth.verifyStepUp(memberId, request.body.code)
        const token = String(request.headers['zxb-token'] ?? '').trim()
        return stepUp.mint(hashToken(token))
      },
    )
  },
)
