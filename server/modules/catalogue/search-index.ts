import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '#server/db/database.ts'
import { every } from '#server/jobs/every.ts'
import { lockStaleCourses, markAllStale, rewriteAllTerms, writeSearchDocuments } from './search-index.repository.ts'
import { searchDocument } from './search-text.ts'

const BATCH = 1000

/**
 * Rebuilds stale search documents, a batch per transaction, until none is left (or `maxBatches` ran). Any number
 * of processes may run it at once. Returns how many documents it rebuilt.
 */
export async function refreshSearchDocuments(
  db: Db,
  options: { batch?: number; maxBatches?: number; withTerms?: boolean } = {},
) {
  const batch = options.batch ?? BATCH
  const maxBatches = options.maxBatches ?? Infinity
  let total = 0
  for (let i = 0; i < maxBatches; i++) {
    const done = await db.transaction(async (tx) => {
      const stale = await lockStaleCourses(tx, batch)
      await writeSearchDocuments(
        tx,
        stale.map((c) => ({
          courseId: c.courseId,
          lessons: c.lessons,
          published: c.published,
          studentCount: c.studentCount,
          ...searchDocument(c),
        })),
        options.withTerms ?? true,
      )
      return stale.length
    })
    total += done
    if (done < batch) break
  }
  return total
}

/** Every course's document rebuilt (after a bulk load with the triggers off: the scale seed). */
export async function rebuildSearchDocuments(db: Db) {
  await markAllStale(db)
  const n = await refreshSearchDocuments(db, { withTerms: false })
  // The terms of all courses at once: far faster than batch by batch.
  await rewriteAllTerms(db)
  return n
}

/** How often a process looks for documents another writer (a seed, plain SQL) left stale. */
const SWEEP_MS = 5_000

/** The background sweep (server/main.ts): documents marked stale by writes outside the app are rebuilt. */
export function startSearchIndexer(deps: { db: Db }, log: FastifyBaseLogger, intervalMs = SWEEP_MS) {
  return every(
    intervalMs,
    async () => {
      const n = await refreshSearchDocuments(deps.db, { maxBatches: 50 })
      if (n > 0) log.info({ documents: n }, 'search documents rebuilt')
    },
    (err) => log.error({ err }, 'search document sweep failed'),
  )
}
