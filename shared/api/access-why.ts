import { z } from 'zod'
import { IdQuery } from './params.ts'

// GET /api/course/access/why: which grants give the member a course, and which took it back (issue 14 §2).

const Reason = z.object({
  source: z
    .string()
    .describe('free_course, vip_membership, or the entitlement source: purchase, redeem, exchange, admin, vip, unlock'),
  label: z.string().describe('How it came, as the page says it: 通过兑换码获得, 抖店订单兑换, 会员免费…'),
  detail: z.string().nullable().describe('Which order, code batch or system course'),
})

export const CourseAccessWhy = z.object({
  course_id: z.number().int(),
  allowed: z.boolean().describe('Some grant opens the whole course now'),
  grants: z.array(
    Reason.extend({
      granted_at: z.string().nullable(),
      expires_at: z.string().nullable().describe('null: for ever'),
    }),
  ),
  ended: z
    .array(
      Reason.extend({
        kind: z.enum(['revoked', 'expired']),
        ended_at: z.string(),
        reason: z
          .string()
          .describe('Why it no longer counts: the platform refund, the code revoked, the refund, expiry'),
      }),
    )
    .describe('Grants taken back or run out, newest first'),
})
export type CourseAccessWhy = z.infer<typeof CourseAccessWhy>

/** `?course_id=`: the course asked about. */
export const CourseAccessWhyQuery = z.object({ course_id: IdQuery })
