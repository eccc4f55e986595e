import { sql } from 'drizzle-orm'
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { courses } from './catalogue.ts'
import { memberOwned, members } from './members.ts'
import { cascadeRef, ref, timestamptz } from './columns.ts'

/** Where a right to watch came from. Purchase, VIP, redeem codes and exchanges arrive with their issues. */
export const entitlementSources = ['admin', 'purchase', 'vip', 'redeem', 'exchange', 'unlock', 'tuition'] as const
export type EntitlementSource = (typeof entitlementSources)[number]

/**
 * A member's right to watch a whole course. It counts while not revoked and not expired (`expires_at` null means
 * for ever); the access function (server/modules/access/access.service.ts) is the one place that reads it.
 */
export const entitlements = pgTable(
  'entitlements',
  {
    ...memberOwned(),
    courseId: cascadeRef(() => courses.id),
    source: text({ enum: entitlementSources }).notNull(),
    /** The order, code or operator behind it, for the record. */
    sourceRef: text(),
    grantedAt: timestamptz().notNull(),
    expiresAt: timestamptz(),
    revokedAt: timestamptz(),
  },
  (t) => [
    index('entitlements_member_course_idx').on(t.memberId, t.courseId),
    index('entitlements_course_idx').on(t.courseId),
    // Orders (issue 4): a paid order grants each of its courses once, whatever replays or crashes do.
    uniqueIndex('entitlements_purchase_key')
      .on(t.sourceRef, t.courseId)
      .where(sql`${t.source} = 'purchase'`),
    // Tuition (issue 15): an enrolment (source_ref "enrolment:<id>") grants its programme once.
    uniqueIndex('entitlements_tuition_key')
      .on(t.sourceRef, t.courseId)
      .where(sql`${t.source} = 'tuition'`),
  ],
)

/** A member's VIP: one row, extended by every VIP order from max(now, current expiry). */
export const vipMemberships = pgTable('vip_memberships', {
  memberId: ref(() => members.id, { onDelete: 'cascade' }).primaryKey(),
  expiresAt: timestamptz().notNull(),
  updatedAt: timestamptz().notNull(),
})
