import { randomUUID } from 'node:crypto'
import type { DbOrTx } from '#server/db/database.ts'
import { publishInvalidation } from '#server/db/cache-bus.ts'
import { onInvalidation } from '#server/http/public-cache.ts'

/**
 * Resolves once this process has heard, over the cache bus, every notification sent before the call: the echo of
 * its own writes included. A value that loads while an echo is on its way is answered but not kept
 * (server/http/public-cache.ts), so a test that expects a read right after a write to be kept waits for this first.
 */
export async function cacheBusHeard(db: DbOrTx) {
  const marker = `test-marker:${randomUUID()}`
  let stop = () => {}
  const heard = new Promise<void>((resolve) => {
    stop = onInvalidation(
      (tags) => tags.includes(marker) && resolve(),
      () => {},
    )
  })
  try {
    await publishInvalidation(db, [marker])
    await heard
  } finally {
    stop()
  }
}
