import type { FastifyInstance } from 'fastify'
import { mediaCacheControl } from './stores.ts'
import { assertKey, contentTypeOf, type Storage } from './storage.ts'

interface StoreFilesOptions {
  store: Storage
  /** The URL path the store's keys are served under (`/media/`), as its `url()` makes them (not `prefix`, which
   * Fastify would put in front of it again). */
  under: string
}

function validKey(key: string) {
  try {
    assertKey(key)
    return true
  } catch {
    return false
  }
}

/**
 * Serves a public store's objects by key under a prefix, the way @fastify/static serves the local media folder:
 * for an object store without a CDN address, so every instance answers for every image.
 */
export async function storeFiles(app: FastifyInstance, opts: StoreFilesOptions) {
  app.get(`${opts.under}*`, { schema: { hide: true } }, async (request, reply) => {
    const key = (request.params as { '*': string })['*']
    const stat = validKey(key) ? await opts.store.stat(key) : null
    const stream = stat ? await opts.store.get(key) : null
    if (!stat || !stream) return reply.callNotFound()
    return reply
      .type(contentTypeOf(key))
      .header('content-length', stat.size)
      .header('last-modified', stat.modifiedAt.toUTCString())
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', mediaCacheControl(key))
      .send(stream)
  })
}
