import os from 'node:os'
import type { FastifyInstance } from 'fastify'
import type pg from 'pg'
import { knownMigrations, latestAppliedMigration } from '#server/db/database.ts'
import type { MediaStores } from '#server/integrations/storage/storage.ts'
import { Codes } from './codes.ts'
import { sendError } from './error-handler.ts'

/** A readiness check: resolves with 'ok', or with a short word for what is wrong (never internals). */
type Check = () => Promise<string>

/** How long the ready check waits for the database (and each other check). */
const CHECK_TIMEOUT_MS = 1000
/** A writable store stays writable for a while: probing it (a PUT and a DELETE in object storage) twice a minute. */
const STORAGE_PROBE_EVERY_MS = 30_000

function within(check: Check, ms: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms)
  })
  return Promise.race([check().catch(() => 'unavailable'), timeout]).finally(() => clearTimeout(timer))
}

/**
 * The ready checks of one process: the database answers within a second and has every migration this code
 * carries, and both media stores take a write. Failures are logged with their cause by the route.
 */
export function readinessChecks(input: {
  pool: Pick<pg.Pool, 'query'>
  stores: MediaStores
  log: { warn(fields: object, message: string): void }
}): Record<string, Check> {
  const expected = knownMigrations().at(-1)?.when ?? 0
  let database: Promise<number> | null = null
  // One query answers both: reachable, and migrated as far as this code expects.
  const applied = () => (database ??= latestAppliedMigration(input.pool).finally(() => (database = null)))
  // At the bucket's top level: a store kept on a filesystem (s3rver, MinIO in FS mode) makes a folder for a "health/"
  // prefix and removes it once empty, so one instance's DELETE could pull the folder from under another's PUT.
  const probeKey = `health-probe-${os.hostname().replace(/[^A-Za-z0-9_-]/g, '_')}-${process.pid}.txt`
  let storage: { at: number; result: Promise<string> } | null = null
  const probe = async () => {
    for (const [name, store] of [
      ['public', input.stores.public],
      ['private', input.stores.private],
    ] as const) {
      try {
        await store.put(probeKey, Buffer.from(new Date().toISOString()))
        await store.delete(probeKey)
      } catch (err) {
        input.log.warn({ err, store: name }, 'ready check: media store not writable')
        return 'not writable'
      }
    }
    return 'ok'
  }
  return {
    database: async () => {
      try {
        await applied()
        return 'ok'
      } catch (err) {
        input.log.warn({ err }, 'ready check: database unreachable')
        return 'unreachable'
      }
    },
    migrations: async () => ((await applied()) >= expected ? 'ok' : 'behind'),
    storage: () => {
      if (!storage || Date.now() - storage.at > STORAGE_PROBE_EVERY_MS) storage = { at: Date.now(), result: probe() }
      return storage.result
    },
  }
}

/**
 * GET /api/health/live: the process answers (restart it when not). GET /api/health/ready, and /api/health as
 * before: ready to serve (take it out of the proxy's rotation when not), 503 naming the failing checks.
 */
export async function healthRoutes(app: FastifyInstance, opts: { checks: Record<string, Check> }) {
  const entries = Object.entries(opts.checks)
  app.get('/health/live', { schema: { hide: true } }, async () => ({ code: 200, msg: 'ok', data: {} }))
  const ready = async (_request: unknown, reply: Parameters<typeof sendError>[0]) => {
    const results = await Promise.all(
      entries.map(async ([name, check]) => [name, await within(check, CHECK_TIMEOUT_MS)]),
    )
    const checks = Object.fromEntries(results) as Record<string, string>
    const failing = results.filter(([, r]) => r !== 'ok')
    if (failing.length > 0)
      return sendError(reply, Codes.Unavailable, `未就绪：${failing.map(([n, r]) => `${n} ${r}`).join('，')}`, {
        checks,
      })
    return { code: 200, msg: 'ok', data: { checks } }
  }
  app.get('/health', { schema: { hide: true } }, ready)
  app.get('/health/ready', { schema: { hide: true } }, ready)
}
