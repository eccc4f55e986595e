import { sql } from 'drizzle-orm'
import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { identity, timestampsDefaultNow, timestamptz } from './columns.ts'

export const jobStatuses = ['queued', 'running', 'done', 'failed'] as const
export type JobStatus = (typeof jobStatuses)[number]

/**
 * The durable job queue (server/jobs). A worker claims a job with FOR UPDATE SKIP LOCKED and holds it by a lease
 * it renews; a job whose lease ran out (its process died) is claimed again.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: identity(),
    kind: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    status: text({ enum: jobStatuses }).notNull().default('queued'),
    /** At most one queued or running job per key (e.g. one transcoding per video). */
    singletonKey: text(),
    attempts: integer().notNull().default(0),
    maxAttempts: integer().notNull().default(3),
    runAt: timestamptz().notNull().defaultNow(),
    lockedBy: text(),
    lockedUntil: timestamptz(),
    lastError: text(),
    ...timestampsDefaultNow(),
    finishedAt: timestamptz(),
  },
  (t) => [
    index('jobs_claim_idx')
      .on(t.runAt, t.id)
      .where(sql`${t.status} in ('queued', 'running')`),
    uniqueIndex('jobs_singleton_key')
      .on(t.singletonKey)
      .where(sql`${t.status} in ('queued', 'running')`),
  ],
)
