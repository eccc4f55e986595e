import { index, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { memberOwned } from './members.ts'
import { timestamptz } from './columns.ts'

/** Login sessions. Only a SHA-256 of the token is stored; the token itself is shown to the client once. */
export const sessions = pgTable(
  'sessions',
  {
    ...memberOwned(),
    tokenHash: text().notNull(),
    platform: smallint().notNull().default(2),
    createdAt: timestamptz().notNull().defaultNow(),
    expiresAt: timestamptz().notNull(),
    revokedAt: timestamptz(),
  },
  (t) => [uniqueIndex('sessions_token_hash_key').on(t.tokenHash), index('sessions_member_idx').on(t.memberId)],
)
