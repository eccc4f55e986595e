import fsp from 'node:fs/promises'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import pLimit from 'p-limit'
import sharp from 'sharp'
import { IMAGE_VARIANT_WIDTHS, RESIZABLE, type ImageVariantWidth } from '#shared/image-variants.ts'
import { mediaCacheControl } from './stores.ts'
import type { Storage } from './storage.ts'

export interface ImageVariantsOptions {
  /** The public media store: the source of `/media/…` images, and where every variant is kept. */
  store: Storage
  /** The folder `/demo/…` is served from (the build's client folder, or public/ in development). */
  webRoot: string
}

/** Where a variant lives in the public store: `variants/360/demo/courses/x.webp`, `variants/360/media/images/…`. */
export const variantKey = (width: ImageVariantWidth, src: string) =>
  `variants/${width}${src.replace(/\.\w+$/, '.webp')}`

interface Source {
  read(): Promise<Buffer | null>
  modifiedAt(): Promise<Date | null>
  cacheControl: string
}

/**
 * Makes and keeps resized copies of the site's images (shared/image-variants.ts): each width once, on first
 * request or ahead of time (`ensure`), kept in the public store and made again when the original is newer.
 */
export function createImageVariants(opts: ImageVariantsOptions) {
  const { store } = opts
  const root = path.resolve(opts.webRoot)
  const making = new Map<string, Promise<void>>()
  // Two resizes at a time in this process, whatever the number of distinct first requests: each holds its original
  // in memory and sharp's work shares libuv's pool with compression and file reads.
  const resizing = pLimit(2)

  function sourceOf(src: string): Source | null {
    const parts = src.slice(1).split('/')
    if (!RESIZABLE.test(src) || parts.some((p) => p === '' || p === '.' || p === '..')) return null
    if (src.startsWith('/demo/')) {
      const file = path.join(root, ...parts)
      if (!file.startsWith(path.join(root, 'demo') + path.sep)) return null
      const stat = () => fsp.stat(file).catch(() => null)
      return {
        read: async () => ((await stat())?.isFile() ? fsp.readFile(file) : null),
        modifiedAt: async () => (await stat())?.mtime ?? null,
        // As the web root serves /demo/ itself (server/http/web.ts): the demo images keep their names when redrawn.
        cacheControl: 'public, max-age=3600',
      }
    }
    const key = src.slice('/media/'.length)
    if (key.startsWith('variants/')) return null
    return {
      read: async () => {
        const stream = await store.get(key)
        if (!stream) return null
        const chunks: Buffer[] = []
        for await (const chunk of stream) chunks.push(chunk as Buffer)
        return Buffer.concat(chunks)
      },
      modifiedAt: async () => (await store.stat(key))?.modifiedAt ?? null,
      cacheControl: mediaCacheControl(key),
    }
  }

  async function make(width: ImageVariantWidth, source: Source, key: string) {
    const data = await source.read()
    if (!data) return
    const resized = await sharp(data, { limitInputPixels: 25_000_000, failOn: 'error' })
      .resize({ width, withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer()
    await store.put(key, resized, { contentType: 'image/webp' })
  }

  /** Makes the variant unless a fresh one is kept; false when there is no such image. Concurrent calls share one. */
  async function ensure(width: ImageVariantWidth, src: string): Promise<{ key: string; cacheControl: string } | null> {
    const source = sourceOf(src)
    if (!source) return null
    const key = variantKey(width, src)
    const [original, kept] = await Promise.all([source.modifiedAt(), store.stat(key)])
    if (!original) return null
    if (!kept || kept.modifiedAt < original) {
      let job = making.get(key)
      if (!job) {
        job = resizing(() => make(width, source, key)).finally(() => making.delete(key))
        making.set(key, job)
      }
      await job
    }
    return { key, cacheControl: source.cacheControl }
  }

  return {
    ensure,
    /** Every width of each image, one after the other (a seed's covers, made ahead); how many images were found. */
    async ensureAll(srcs: readonly string[]) {
      let found = 0
      for (const src of srcs) {
        let all = true
        for (const width of IMAGE_VARIANT_WIDTHS) all = Boolean(await ensure(width, src)) && all
        if (all) found++
      }
      return found
    },
  }
}

export type ImageVariants = ReturnType<typeof createImageVariants>

const widths = new Set<number>(IMAGE_VARIANT_WIDTHS)

/**
 * `GET /img/<width>/<path>`: the image at `/<path>` resized (ImageVariants). Anything but a listed width and one of
 * the site's images under /demo/ or /media/ is not found; an original that is not an image is not found either.
 */
export async function imageVariantRoutes(app: FastifyInstance, opts: { variants: ImageVariants; store: Storage }) {
  // Variants are served here only, where their original is checked first: once an original is deleted (an erased
  // account's photo, a replaced poster) its copies are not found, though `/media/` serves the store they sit in.
  app.get('/media/variants/*', { schema: { hide: true } }, (_request, reply) => reply.callNotFound())
  app.get('/img/:width/*', { schema: { hide: true } }, async (request, reply) => {
    const params = request.params as { width: string; '*': string }
    const width = Number(params.width)
    if (!widths.has(width) || String(width) !== params.width) return reply.callNotFound()
    let made: Awaited<ReturnType<ImageVariants['ensure']>>
    try {
      made = await opts.variants.ensure(width as ImageVariantWidth, `/${params['*']}`)
    } catch (err) {
      // sharp refuses what is not a readable image: a bad original is answered like a missing one.
      request.log.warn({ err, url: request.url }, 'image variant not made')
      made = null
    }
    const stat = made ? await opts.store.stat(made.key) : null
    const stream = made && stat ? await opts.store.get(made.key) : null
    if (!made || !stat || !stream) return reply.callNotFound()
    return reply
      .type('image/webp')
      .header('content-length', stat.size)
      .header('last-modified', stat.modifiedAt.toUTCString())
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', made.cacheControl)
      .send(stream)
  })
}
