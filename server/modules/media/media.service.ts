import crypto from 'node:crypto'
import sharp, { type Metadata, type OutputInfo } from 'sharp'
import type { Db } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { beijingYear } from '#shared/time.ts'
import { findMemberUpload, insertUpload } from './media.repository.ts'
import type { MediaStorage } from './media.storage.ts'
import { findVideoMediaRows } from './video-media-views.repository.ts'
import { mediaView, type MediaView, type UploadedFile } from './video-media.service.ts'
import type { DbOrTx } from '#server/db/database.ts'
import { videoMediaStatuses } from '#server/db/schema/media.ts'
import type { MediaStores } from '#server/integrations/storage/storage.ts'

export const ImageRules = {
  maxBytes: 5 * 1024 * 1024,
  maxPixels: 25_000_000,
  /** Uploaded images are avatars for now: 1024 px on the longer side is plenty. */
  maxSide: 1024,
  formats: ['jpeg', 'png', 'webp'],
} as const

/** Public URL prefix of the media folder (served by server/app.ts). */
const MEDIA_URL_PREFIX = '/media/'

const uploadPath = /^uploads\/\d{4}\/[0-9a-f]{32}\.webp$/

export interface MediaServiceDeps {
  db: Db
  storage: MediaStorage
  now: () => Date
  publicUrl: string
}

export function createMediaService(deps: MediaServiceDeps) {
  return {
    /**
     * Checks an uploaded image by its content (JPEG, PNG or WebP; at most 25 megapixels), re-encodes it to WebP
     * without its metadata (EXIF, GPS, ICC) after applying its orientation, stores it and records it for the member.
     */
    async uploadImage(memberId: number, data: Buffer) {
      if (data.length > ImageRules.maxBytes) throw new AppError(Codes.ImageTooLarge)
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
      if (meta.width * meta.height > ImageRules.maxPixels) throw new AppError(Codes.ImageTooLarge)

      let encoded: { data: Buffer; info: OutputInfo }
      try {
        encoded = await sharp(data, { limitInputPixels: ImageRules.maxPixels, failOn: 'error' })
          .rotate()
          .resize({ width: ImageRules.maxSide, height: ImageRules.maxSide, fit: 'inside', withoutEnlargement: true })
          .webp({ quality: 82 })
          .toBuffer({ resolveWithObject: true })
      } catch {
        throw new AppError(Codes.ImageInvalid)
      }

      const now = deps.now()
      const relativePath = `uploads/${beijingYear(now)}/${crypto.randomBytes(16).toString('hex')}.webp`
      await deps.storage.put(relativePath, encoded.data)
      try {
        await insertUpload(deps.db, {
          memberId,
          path: relativePath,
          width: encoded.info.width,
          height: encoded.info.height,
          bytes: encoded.data.length,
          createdAt: now,
        })
      } catch (err) {
        await deps.storage.remove(relativePath)
        throw err
      }
      return { url: `${MEDIA_URL_PREFIX}${relativePath}`, width: encoded.info.width, height: encoded.info.height }
    },

    /**
     * The canonical URL of an image this member uploaded, given the URL the client sends back (relative, or
     * absolute on this site); null when it is anything else.
     */
    async ownUploadUrl(memberId: number, url: string): Promise<string | null> {
      let rest = url.trim()
      if (rest.startsWith(deps.publicUrl)) rest = rest.slice(deps.publicUrl.length)
      if (!rest.startsWith(MEDIA_URL_PREFIX)) return null
      const relativePath = rest.slice(MEDIA_URL_PREFIX.length)
      if (!uploadPath.test(relativePath)) return null
      const upload = await findMemberUpload(deps.db, memberId, relativePath)
      return upload ? `${MEDIA_URL_PREFIX}${relativePath}` : null
    },
  }
}

export type MediaService = ReturnType<typeof createMediaService>

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
