import { index, integer, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core'
import { teachers } from './catalogue.ts'
import { members } from './members.ts'

/** A member following a teacher. */
export const follows = pgTable(
  'follows',
  {
    memberId: integer()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    teacherId: integer()
      .notNull()
      .references(() => teachers.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.teacherId] }), index('follows_teacher_idx').on(t.teacherId)],
)
