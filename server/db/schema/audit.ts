import { index, integer, jsonb, pgTable, smallint, text } from 'drizzle-orm/pg-core'
import { members } from './members.ts'
import { identity, ref, timestamptz } from './columns.ts'

/**
 * Append-only: every change an operator makes through the staff API (`/api/admin/…` and staff routes), who made
 * it and when, with what they sent (secrets removed) and how it ended. Written after the answer is sent.
 */
export const staffActions = pgTable(
  'staff_actions',
  {
    id: identity(),
    memberId: ref(() => members.id).notNull(),
    method: text().notNull(),
    /** The route as registered ("/api/admin/refunds/:refund_no/approve"), for filtering. */
    route: text().notNull(),
    url: text().notNull(),
    params: jsonb().$type<Record<string, unknown>>(),
    body: jsonb(),
    /** HTTP status and the envelope's code (200 is success). */
    status: smallint().notNull(),
    code: integer(),
    requestId: text().notNull(),
    createdAt: timestamptz().notNull(),
  },
  (t) => [index('staff_actions_member_idx').on(t.memberId, t.id), index('staff_actions_route_idx').on(t.route, t.id)],
)
