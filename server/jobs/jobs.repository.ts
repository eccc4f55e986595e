import { and, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { jobs } from '#server/db/schema/jobs.ts'

export type JobRow = typeof jobs.$inferSelect

export interface NewJob {
  kind: string
  payload: Record<string, unknown>
  /** While a job with this key is queued or running, another one with it is not added. */
  singletonKey?: string
  maxAttempts?: number
  runAt?: Date
}

/** Adds a job; returns its id, or null when a job with the same singleton key is already waiting or running. */
export async function insertJob(db: DbOrTx, job: NewJob): Promise<number | null> {
  const [row] = await db
    .insert(jobs)
    .values({
      kind: job.kind,
      payload: job.payload,
      singletonKey: job.singletonKey,
      maxAttempts: job.maxAttempts ?? 3,
      ...(job.runAt ? { runAt: job.runAt } : {}),
    })
    .onConflictDoNothing({ target: jobs.singletonKey, where: sql`status in ('queued', 'running')` })
    .returning({ id: jobs.id })
  return row?.id ?? null
}

/**
 * Takes the next due job of these kinds for this worker: a queued one, or a running one whose lease ran out (its
 * worker died) and that has attempts left. SKIP LOCKED lets several workers claim at once without waiting.
 */
export async function claimJob(db: DbOrTx, workerId: string, kinds: string[], leaseMs: number): Promise<JobRow | null> {
  const result = await db.execute<Record<string, unknown>>(sql`
    update jobs set
      status = 'running',
      attempts = attempts + 1,
      locked_by = ${workerId},
      locked_until = now() + ${leaseMs} * interval '1 millisecond',
      updated_at = now()
    where id = (
      select id from jobs
      where kind = any(${sql.param(kinds)}::text[])
        and (
          (status = 'queued' and run_at <= now())
          or (status = 'running' and locked_until < now() and attempts < max_attempts)
        )
      order by run_at, id
      for update skip locked
      limit 1
    )
    returning id
  `)
  const id = result.rows[0]?.id as number | undefined
  if (id === undefined) return null
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id))
  return row ?? null
}

/** Extends this worker's lease on a running job; false when the job is no longer this worker's. */
export async function renewLease(db: DbOrTx, id: number, workerId: string, leaseMs: number) {
  const rows = await db
    .update(jobs)
    .set({ lockedUntil: sql`now() + ${leaseMs} * interval '1 millisecond'`, updatedAt: sql`now()` })
    .where(and(eq(jobs.id, id), eq(jobs.lockedBy, workerId), eq(jobs.status, 'running')))
    .returning({ id: jobs.id })
  return rows.length > 0
}

export async function completeJob(db: DbOrTx, id: number, workerId: string) {
  await db
    .update(jobs)
    .set({ status: 'done', lockedBy: null, lockedUntil: null, finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(jobs.id, id), eq(jobs.lockedBy, workerId), eq(jobs.status, 'running')))
}

/**
 * Records a failed attempt: the job waits `retryDelayMs` and runs again while it has attempts left, otherwise (or
 * when `permanent`) it is failed for good. Returns the new status, or null when the job was no longer ours.
 */
export async function failJob(
  db: DbOrTx,
  id: number,
  workerId: string,
  error: string,
  retryDelayMs: number,
  permanent: boolean,
) {
  const [row] = await db
    .update(jobs)
    .set({
      status: permanent ? sql`'failed'` : sql`case when attempts < max_attempts then 'queued' else 'failed' end`,
      runAt: sql`now() + ${retryDelayMs} * interval '1 millisecond'`,
      finishedAt: permanent ? sql`now()` : sql`case when attempts < max_attempts then null else now() end`,
      lastError: error.slice(0, 2000),
      lockedBy: null,
      lockedUntil: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, id), eq(jobs.lockedBy, workerId), eq(jobs.status, 'running')))
    .returning({ status: jobs.status })
  return row?.status ?? null
}

/** Gives a job back untouched (the worker is stopping): it runs again at once and the attempt does not count. */
export async function releaseJob(db: DbOrTx, id: number, workerId: string) {
  await db
    .update(jobs)
    .set({
      status: 'queued',
      attempts: sql`greatest(attempts - 1, 0)`,
      lockedBy: null,
      lockedUntil: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, id), eq(jobs.lockedBy, workerId), eq(jobs.status, 'running')))
}

/** Fails the running jobs whose lease ran out with no attempts left (their worker died each time). */
export async function failAbandonedJobs(db: DbOrTx, kinds: string[]) {
  return db.execute<{ id: number; kind: string; attempts: number; payload: Record<string, unknown> }>(sql`
    update jobs set status = 'failed', finished_at = now(), updated_at = now(), locked_by = null, locked_until = null,
      last_error = coalesce(last_error, 'the worker stopped while running it, too many times')
    where status = 'running' and locked_until < now() and attempts >= max_attempts
      and kind = any(${sql.param(kinds)}::text[])
    returning id, kind, attempts, payload
  `)
}

export async function findJob(db: DbOrTx, id: number) {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id))
  return row ?? null
}

/** Jobs waiting or running, by kind and status (the metrics' queue depth). */
export async function jobQueueDepth(db: DbOrTx) {
  const result = await db.execute<{ kind: string; status: string; n: number }>(sql`
    select kind, status, count(*)::int as n from jobs where status in ('queued', 'running') group by kind, status
  `)
  return result.rows
}
