import crypto from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import sharp, { type Metadata, type OutputInfo } from 'sharp'
import type { Db, DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { MediaStores, Storage } from '#server/integrations/storage/storage.ts'
import { beijingYear } from '#shared/time.ts'
import { findMemberUpload, insertUpload } from './media.repository.ts'
import { findVideoMediaRows } from './video-media-views.repository.ts'
import { mediaView, type MediaView, type UploadedFile } from './video-media.service.ts'
import { videoMediaStatuses } from '#server/db/schema/media.ts'

export const ImageRules = {
  maxBytes: 5 * 1024 * 1024,
  maxPixels: 25_000_000,
  /** Uploaded images are avatars for now: 1024 px on the longer side is plenty. */
  maxSide: 1024,
  formats: ['jpeg', 'png', 'webp'],
} as const

/** The limits of one kind of uploaded image: members' avatars (ImageRules) or operators' course images. */
export interface ImageLimits {
  maxBytes: number
  maxPixels: number
  /** The longer side of the stored image, in pixels; smaller images are not enlarged. */
  maxSide: number
}

/**
 * Checks an uploaded image by its content (JPEG, PNG or WebP; at most `maxPixels`) and re-encodes it to WebP
 * without its metadata (EXIF, GPS, ICC) after applying its orientation. Throws ImageTooLarge or ImageInvalid.
 */
export async function encodeWebpImage(data: Buffer, limits: ImageLimits) {
  if (data.length > limits.maxBytes) throw new AppError(Codes.ImageTooLarge)
  let meta: Metadata
  try {
    // Only the header is read here, so a decompression bomb is refused before any pixel is decoded.
    meta = await sharp(data, { limitInputPixels: false }).metadata()
  } catch {
    throw new AppError(Codes.ImageInvalid)
  }
  if (!(ImageRules.formats as readonly string[]).includes(meta.format) || !meta.width || !meta.height) {
    throw new AppError(Codes.ImageInvalid)
  }
  if (meta.width * meta.height > limits.maxPixels) throw new AppError(Codes.ImageTooLarge)

  let encoded: { data: Buffer; info: OutputInfo }
  try {
    encoded = await sharp(data, { limitInputPixels: limits.maxPixels, failOn: 'error' })
      .rotate()
      .resize({ width: limits.maxSide, height: limits.maxSide, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true })
  } catch {
    throw new AppError(Codes.ImageInvalid)
  }
  return { data: encoded.data, width: encoded.info.width, height: encoded.info.height }
}

/** The storage key of a member's uploaded image, at the end of its URL. */
const uploadKey = /uploads\/\d{4}\/[0-9a-f]{32}\.webp$/

export interface MediaServiceDeps {
  db: Db
  /** The public store (served to browsers): uploaded images are shown by their URL. */
  storage: Storage
  now: () => Date
  publicUrl: string
}

export function createMediaService(deps: MediaServiceDeps) {
  const { db, storage } = deps
  return {
    /** Re-encodes an uploaded image (encodeWebpImage with ImageRules), stores it and records it for the member. */
    async uploadImage(memberId: number, data: Buffer) {
      const image = await encodeWebpImage(data, ImageRules)
      const now = deps.now()
      const key = `uploads/${beijingYear(now)}/${crypto.randomBytes(16).toString('hex')}.webp`
      await storage.put(key, image.data, { contentType: 'image/webp' })
      try {
        await insertUpload(db, {
          memberId,
          path: key,
          width: image.width,
          height: image.height,
          bytes: image.data.length,
          createdAt: now,
        })
      } catch (err) {
        await storage.delete(key)
        throw err
      }
      return { url: storage.url(key), width: image.width, height: image.height }
    },

    /**
     * Removes stored images whose rows are gone (eraseMemberUploads, after its transaction commits). A file that
     * cannot be removed is logged and left: the account's deletion has already happened and must not fail now.
     */
    async removeStoredUploads(keys: readonly string[], log: Pick<FastifyBaseLogger, 'warn'>) {
      for (const key of keys) {
        await storage.delete(key).catch((err: unknown) => log.warn({ err, key }, 'uploaded image not removed'))
      }
    },

    /**
     * The canonical URL of an image this member uploaded, given the URL the client sends back (relative, or
     * absolute on this site); null when it is anything else.
     */
    async ownUploadUrl(memberId: number, url: string): Promise<string | null> {
      let rest = url.trim()
      if (rest.startsWith(deps.publicUrl)) rest = rest.slice(deps.publicUrl.length)
      const key = uploadKey.exec(rest)?.[0]
      if (!key || storage.url(key) !== rest) return null
      const upload = await findMemberUpload(db, memberId, key)
      return upload ? storage.url(key) : null
    },
  }
}

export type MediaService = ReturnType<typeof createMediaService>

/** A member's uploaded images (avatars): the rows go in the deletion's transaction; the answer is their keys. */
export { deleteMemberUploads as eraseMemberUploads } from './media.repository.ts'

// ---- Video media for the operators' API (server/modules/admin); the work is in video-media.service.ts ----

/** The states a video's media goes through: uploaded (queued) → transcoding → ready | failed. */
export const videoMediaStates = videoMediaStatuses

/** A video's media as operators see it (status, progress, renditions, poster). */
export type VideoMediaView = MediaView

/** An uploaded video file as it streams in (VideoMediaService.upload). */
export type VideoUpload = UploadedFile

/** The media state of several videos, by id, in one query ('none' for a video without an upload). */
export async function mediaViewsByVideoIds(
  db: DbOrTx,
  stores: MediaStores,
  videoIds: number[],
): Promise<Map<number, VideoMediaView>> {
  const rows = new Map((await findVideoMediaRows(db, [...new Set(videoIds)])).map((r) => [r.videoId, r]))
  return new Map(videoIds.map((id) => [id, mediaView(id, rows.get(id) ?? null, stores)]))
}

/**
 * The condition "this video's media is in `state`" ('none': nothing uploaded) over a video id column of another
 * module's statement (the catalogue's staff video list), on this module's own table.
 */
export { mediaStateCondition } from './video-media-views.repository.ts'
