import crypto from 'node:crypto'
import { EventEmitter } from 'node:events'
import os from 'node:os'
import type { FastifyBaseLogger } from 'fastify'
import type { DbOrTx } from '#server/db/database.ts'
import {
  claimJob,
  completeJob,
  failAbandonedJobs,
  failJob,
  insertJob,
  releaseJob,
  renewLease,
  type JobRow,
  type NewJob,
} from './jobs.repository.ts'

/** Thrown by a handler for a failure that another attempt cannot fix (an unreadable source file). */
export class PermanentJobError extends Error {}

interface JobContext {
  job: JobRow
  /** Aborted when the worker stops or loses the job: the handler stops its work and throws. */
  signal: AbortSignal
  log: FastifyBaseLogger
}

export interface JobKind {
  run(payload: Record<string, unknown>, ctx: JobContext): Promise<void>
  /** Called once when the job has failed for good, to record it where people look (the video's status). */
  onFailed?(payload: Record<string, unknown>, error: string): Promise<void>
}

/** What the worker reports as it goes (server/jobs/start.ts turns it into metrics and business events). */
export interface JobObserver {
  /** One attempt ended: done, retry (failed, runs again later), failed (for good), given_back (worker stopping). */
  finished(kind: string, result: 'done' | 'retry' | 'failed' | 'given_back', seconds: number): void
  /** A job failed for good: its last attempt failed, it failed permanently, or its worker died too many times. */
  failed(job: { id: number; kind: string; attempts: number }, error: string): void
}

export interface WorkerOptions {
  db: DbOrTx
  kinds: Record<string, JobKind>
  log: FastifyBaseLogger
  observer?: JobObserver
  /** How often an idle worker looks for work (a job added in this process wakes it at once). */
  pollMs?: number
  /** How long a claim holds without renewal; a job whose worker died is taken again after this. */
  leaseMs?: number
  concurrency?: number
  /** Delay before the n-th retry: retryBaseMs × 4^(n−1). */
  retryBaseMs?: number
}

const enqueued = new EventEmitter()
enqueued.setMaxListeners(0)

/** Adds a job to the durable queue (inside the caller's transaction when given one) and wakes local workers. */
export async function enqueueJob(db: DbOrTx, job: NewJob) {
  const id = await insertJob(db, job)
  // A transaction may not have committed yet; the woken worker then finds nothing and polls again shortly.
  setImmediate(() => enqueued.emit('job', job.kind))
  return id
}

export type Worker = ReturnType<typeof createWorker>

/**
 * Runs jobs from the `jobs` table. Each running job's lease is renewed while it runs; on stop, running jobs are
 * aborted and given back so the next start (of this or another process) runs them again.
 */
export function createWorker(options: WorkerOptions) {
  const { db, kinds, log, observer } = options
  const pollMs = options.pollMs ?? 1000
  const leaseMs = options.leaseMs ?? 60_000
  const concurrency = options.concurrency ?? 1
  const retryBaseMs = options.retryBaseMs ?? 30_000
  const id = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`
  const kindNames = Object.keys(kinds)
  const running = new Map<number, { controller: AbortController; done: Promise<void> }>()
  let stopped = true
  let lastReap = 0
  let loop: Promise<void> | null = null
  let wakeUp: (() => void) | null = null

  const onEnqueued = (kind: string) => {
    if (kindNames.includes(kind)) wakeUp?.()
  }

  async function execute(job: JobRow, controller: AbortController) {
    const kind = kinds[job.kind]!
    let lost = false
    const renew = setInterval(
      () => {
        renewLease(db, job.id, id, leaseMs)
          .then((mine) => {
            if (!mine) {
              lost = true
              controller.abort(new Error('lease lost'))
            }
          })
          .catch((err: unknown) => log.warn({ err, job: job.id }, 'job lease not renewed'))
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    )
    const jobLog = log.child({ job: job.id, kind: job.kind })
    const started = performance.now()
    const seconds = () => (performance.now() - started) / 1000
    try {
      await kind.run(job.payload, { job, signal: controller.signal, log: jobLog })
      await completeJob(db, job.id, id)
      jobLog.info({ attempt: job.attempts }, 'job done')
      observer?.finished(job.kind, 'done', seconds())
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      if (stopped && controller.signal.aborted && !lost) {
        await releaseJob(db, job.id, id)
        jobLog.info('job given back: the worker is stopping')
        observer?.finished(job.kind, 'given_back', seconds())
      } else if (!lost) {
        const permanent = err instanceof PermanentJobError
        const status = await failJob(db, job.id, id, message, retryBaseMs * 4 ** (job.attempts - 1), permanent)
        jobLog.warn({ err, attempt: job.attempts, status }, 'job failed')
        observer?.finished(job.kind, status === 'failed' ? 'failed' : 'retry', seconds())
        if (status === 'failed') {
          observer?.failed({ id: job.id, kind: job.kind, attempts: job.attempts }, message)
          await kind.onFailed?.(job.payload, message)
        }
      }
    } finally {
      clearInterval(renew)
    }
  }

  async function reapAbandoned() {
    const result = await failAbandonedJobs(db, kindNames)
    for (const row of result.rows) {
      const error = 'the worker stopped while running it, too many times'
      log.warn({ job: row.id, kind: row.kind }, 'job failed: its worker stopped too many times')
      observer?.failed({ id: row.id, kind: row.kind, attempts: row.attempts }, error)
      await kinds[row.kind]?.onFailed?.(row.payload, error)
    }
  }

  /** Claims and starts at most one job; true when one was started. */
  async function startOne() {
    const job = await claimJob(db, id, kindNames, leaseMs)
    if (!job) return false
    const controller = new AbortController()
    const done = execute(job, controller)
      .catch((err: unknown) => log.error({ err, job: job.id }, 'job bookkeeping failed'))
      .finally(() => running.delete(job.id))
    running.set(job.id, { controller, done })
    return true
  }

  async function run() {
    while (!stopped) {
      let started = false
      try {
        // Abandoned jobs are rare: looking for them every ten seconds is plenty.
        if (Date.now() - lastReap >= 10_000) {
          lastReap = Date.now()
          await reapAbandoned()
        }
        while (!stopped && running.size < concurrency && (await startOne())) started = true
      } catch (err) {
        log.warn({ err }, 'job queue unavailable; retrying')
      }
      if (stopped) break
      if (running.size >= concurrency) {
        await Promise.race([...running.values()].map((r) => r.done))
        continue
      }
      if (!started) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollMs)
          wakeUp = () => {
            clearTimeout(timer)
            resolve()
          }
        })
        wakeUp = null
      }
    }
  }

  return {
    id,
    start() {
      if (!stopped) return
      stopped = false
      enqueued.on('job', onEnqueued)
      loop = run()
    },
    /** Stops claiming, aborts running jobs and gives them back; resolves when all have settled. */
    async stop() {
      if (stopped) return
      stopped = true
      enqueued.off('job', onEnqueued)
      wakeUp?.()
      for (const r of running.values()) r.controller.abort(new Error('worker stopping'))
      await loop
      await Promise.all([...running.values()].map((r) => r.done))
    },
    /** For tests: how many jobs run right now. */
    get busy() {
      return running.size
    },
  }
}
