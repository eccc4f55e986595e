import { z } from 'zod'
import { BodyId } from './params.ts'

import { CommentReportReasons } from '#shared/comment-report-reasons.ts'

// Reporting a comment (POST /api/comment/report); the reasons' names are in shared/comment-report-reasons.ts.

/** POST /api/comment/report: one report per member per comment. */
export const CommentReportBody = z.strictObject({
  id: BodyId,
  reason: z.enum(CommentReportReasons, '请选择举报原因'),
  detail: z.string().trim().max(200, '补充说明最多 200 个字').optional(),
})
export type CommentReportBody = z.output<typeof CommentReportBody>
