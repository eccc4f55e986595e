import type { FastifyBaseLogger } from 'fastify'
import { every } from '#server/jobs/every.ts'

/** Advisory lock id of the platform sync: one process runs it at a time. */
const SYNC_LOCK = 727_414

interface SyncDeps {
  /** Runs `fn` under the advisory lock `key`; null when another process holds it. */
  withTryLock: <T>(key: number, fn: () => Promise<T>) => Promise<T | null>
  /** sync-platform-orders.ts, bound: orders changed in the last `lookbackMs`. */
  sync: (lookbackMs: number) => Promise<{ orders: number; revoked: number; failed: string[] }>
}

/**
 * Runs the platform sync every `intervalMs` (server/main.ts), the first time right after boot: orders changed in the
 * last three intervals (so a missed round is caught up) are read again; refunds revoke what they granted.
 */
export function startPlatformSync(deps: SyncDeps, log: FastifyBaseLogger, intervalMs: number) {
  return every(
    intervalMs,
    async () => {
      const r = await deps.withTryLock(SYNC_LOCK, () => deps.sync(intervalMs * 3))
      if (r && r.revoked > 0) log.info(r, 'platform sync revoked exchanges')
      if (r && r.failed.length > 0) log.error(r, 'platform sync could not read some platforms')
    },
    (err) => log.error({ err }, 'platform sync failed'),
  )
}
