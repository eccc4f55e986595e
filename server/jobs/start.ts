import type { FastifyBaseLogger } from 'fastify'
import { TRANSCODE_JOB } from '#server/modules/media/video-media.service.ts'
import type { Services } from '#server/services.ts'
import { createWorker, type JobObserver, type WorkerOptions } from './worker.ts'

/** Every kind of job the worker runs, from the services that do the work. */
function jobKinds(services: Pick<Services, 'videoMedia'>) {
  return { [TRANSCODE_JOB]: services.videoMedia.transcodeJob }
}

/** Attempts go to the metrics (transcodes on their own too); a job that failed for good is a business event. */
function jobObserver({ metrics, events }: Services['telemetry']): JobObserver {
  return {
    finished: (kind, result, seconds) => metrics.jobFinished(kind, result, seconds, kind === TRANSCODE_JOB),
    failed: (job, error) =>
      events.emit({
        event: 'job.failed',
        job_id: job.id,
        kind: job.kind,
        attempts: job.attempts,
        error: error.slice(0, 300),
      }),
  }
}

/**
 * Starts the job worker in this process (server/main.ts after the database opens; tests start it themselves).
 * `stop()` it before closing the database: running jobs are given back and run again at the next start.
 */
export function startJobWorker(
  services: Pick<Services, 'db' | 'videoMedia' | 'telemetry'>,
  log: FastifyBaseLogger,
  options: Partial<Omit<WorkerOptions, 'db' | 'kinds' | 'log'>> = {},
) {
  const worker = createWorker({
    db: services.db,
    kinds: jobKinds(services),
    log: log.child({ component: 'jobs' }),
    observer: jobObserver(services.telemetry),
    ...options,
  })
  worker.start()
  return worker
}
