import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { members } from './members.ts'
import { identity, ref, timestamptz } from './columns.ts'

/**
 * First touch of a promotion source (`sp`): one row per visitor (cookie) and one per member, never overwritten,
 * so a sign-up or an order is credited to the source that brought the person first.
 */
export const attributions = pgTable(
  'attributions',
  {
    id: identity(),
    visitorId: text(),
    memberId: ref(() => members.id, { onDelete: 'cascade' }),
    sp: text().notNull(),
    url: text(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('attributions_visitor_key').on(t.visitorId),
    uniqueIndex('attributions_member_key').on(t.memberId),
    index('attributions_sp_idx').on(t.sp),
  ],
)
