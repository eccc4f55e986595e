// Why a learner reports a comment: the learner's sheet and the console's queue name the reasons with the same
// words. No zod here, so the learner's comment list does not carry the schema library (shared/api/comment-reports.ts
// holds the request schema).

export const CommentReportReasons = ['ad', 'abuse', 'porn', 'illegal', 'other'] as const
export type CommentReportReason = (typeof CommentReportReasons)[number]

export const CommentReportReasonNames: Record<CommentReportReason, string> = {
  ad: '广告或引流',
  abuse: '辱骂或人身攻击',
  porn: '色情低俗',
  illegal: '违法违规',
  other: '其他',
}
