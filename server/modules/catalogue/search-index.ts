import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '#server/db/database.ts'
import { invalidate } from '#server/http/public-cache.ts'
import { every } from '#server/jobs/every.ts'
import { SEARCH_TAG } from './cache-tags.ts'
import { lockStaleCourses, markAllStale, rewriteAllTerms, writeSearchDocuments } from './search-index.repository.ts'
import { searchDocument } from './search-text.ts'
import { pruneSearchWords } from './search-words.repository.ts'

const BATCH = 1000

/**
 * Rebuilds stale search documents, a batch per transaction, until none is left (or `maxBatches` ran), then drops
 * the cached search pages. Any number of processes may run it at once. Returns how many documents it rebuilt.
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
  // Cached search pages may hold what changed (search.ts): they go, here and in every other process.
  if (total > 0) await invalidate(db, [SEARCH_TAG])
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
/** How often a process removes words no course has any more from the vocabulary of corrections. */
const PRUNE_MS = 60 * 60_000

/**
 * The background sweeps (server/main.ts): documents marked stale by writes outside the app are rebuilt, and
 * now and then the vocabulary of corrections loses the words of courses gone or changed.
 */
export function startSearchIndexer(deps: { db: Db }, log: FastifyBaseLogger, intervalMs = SWEEP_MS) {
  const documents = every(
    intervalMs,
    async () => {
      const n = await refreshSearchDocuments(deps.db, { maxBatches: 50 })
      if (n > 0) log.info({ documents: n }, 'search documents rebuilt')
    },
    (err) => log.error({ err }, 'search document sweep failed'),
  )
  const words = every(
    PRUNE_MS,
    async () => {
      const n = await pruneSearchWords(deps.db)
      if (n > 0) log.info({ words: n }, 'search words pruned')
    },
    (err) => log.error({ err }, 'search word pruning failed'),
  )
  return {
    async stop() {
      await Promise.all([documents.stop(), words.stop()])
    },
  }
}
