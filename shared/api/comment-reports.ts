import { z } from 'zod'
import { BodyId } from './params.ts'

// Reporting a comment (POST /api/comment/report): the learner's sheet and the console's queue name the reasons
// with the same words.

export const CommentReportReasons = ['ad', 'abuse', 'porn', 'illegal', 'other'] as const
export type CommentReportReason = (typeof CommentReportReasons)[number]

export const CommentReportReasonNames: Record<CommentReportReason, string> = {
  ad: '广告或引流',
  abuse: '辱骂或人身攻击',
  porn: '色情低俗',
  illegal: '违法违规',
  other: '其他',
}

/** POST /api/comment/report: one report per member per comment. */
export const CommentReportBody = z.strictObject({
  id: BodyId,
  reason: z.enum(CommentReportReasons, '请选择举报原因'),
  detail: z.string().trim().max(200, '补充说明最多 200 个字').optional(),
})
export type CommentReportBody = z.output<typeof CommentReportBody>
