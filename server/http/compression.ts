import fastifyCompress from '@fastify/compress'
import type { FastifyInstance } from 'fastify'

/** Text worth compressing. Video (HLS segments are video/mp2t, already compressed) and raster images never are. */
export function compressible(type: string) {
  const t = type.split(';', 1)[0]!.trim().toLowerCase()
  if (t.startsWith('video/') || t.startsWith('audio/')) return false
  if (t.startsWith('image/')) return t === 'image/svg+xml'
  return /^text\/(?!event-stream)|[/+]json$|[/+]xml$|javascript$|mpegurl$/.test(t)
}

/**
 * Brotli or gzip, as the request's Accept-Encoding allows, for answers over 1 KB sent through reply.send (the API,
 * cached pages, playlists). Built assets come precompressed from disk instead (web.ts, scripts/precompress.ts).
 * Registered before the routes: the plugin hooks each route as it is added.
 */
export async function registerCompression(app: FastifyInstance) {
  await app.register(fastifyCompress, { encodings: ['br', 'gzip'], threshold: 1024, customTypes: compressible })
}
