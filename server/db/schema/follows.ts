import { index, pgTable, primaryKey } from 'drizzle-orm/pg-core'
import { teachers } from './catalogue.ts'
import { members } from './members.ts'
import { cascadeRef, timestamptz } from './columns.ts'

/** A member following a teacher. */
export const follows = pgTable(
  'follows',
  {
    memberId: cascadeRef(() => members.id),
    teacherId: cascadeRef(() => teachers.id),
    createdAt: timestamptz().notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.teacherId] }), index('follows_teacher_idx').on(t.teacherId)],
)
