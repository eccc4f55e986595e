import crypto from 'node:crypto'
import type { Db } from '#server/db/database.ts'
import type { BusinessEvents } from '#server/http/business-events.ts'
import { idsOf } from '#server/http/present.ts'
import type { MediaStores } from '#server/integrations/storage/storage.ts'
import {
  grantEntitlement,
  listMemberEntitlements,
  revokeEntitlementById,
} from '#server/modules/access/access.service.ts'
import { createCatalogueEditor } from '#server/modules/catalogue/catalogue.service.ts'
import {
  encodeWebpImage,
  mediaViewsByVideoIds,
  type VideoMediaView,
  type VideoUpload,
} from '#server/modules/media/media.service.ts'
import type { VideoCreate, VideoPatch } from '#shared/api/catalogue-editing.ts'
import type { EntitlementGrant, EntitlementListQuery } from './admin.schema.ts'
import { beijingYear } from '#shared/time.ts'
import { createMediaLibrary } from './media-library.ts'

export interface AdminDeps {
  db: Db
  stores: MediaStores
  /** Video uploads and transcoding (server/modules/media, VideoMediaService). */
  videoMedia: {
    upload(videoId: number, file: VideoUpload): Promise<VideoMediaView>
    retranscode(videoId: number): Promise<VideoMediaView>
  }
  now: () => Date
  /** Staff grants and revocations are business events (logged once, with the member id). */
  events?: Pick<BusinessEvents, 'emit'>
}

/** Images operators upload (covers, teacher photos, icons): like avatars, but up to 1600 px. */
export const AdminImageRules = { maxBytes: 5 * 1024 * 1024, maxPixels: 25_000_000, maxSide: 1600 } as const

const date = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v))

/**
 * The operator API's work: catalogue editing through the catalogue's door, each video with its media state from
 * the media module, images stored publicly, and entitlements through the access module.
 */
export function createAdminService(deps: AdminDeps) {
  const { db, stores, videoMedia, now, events } = deps
  const catalogue = createCatalogueEditor({ db, now })

  /** Videos (catalogue fields) with their media state: one query for all of them. */
  async function withMedia<V extends { id: number }>(videos: V[]) {
    const media = await mediaViewsByVideoIds(db, stores, idsOf(videos, 'id'))
    return videos.map((v) => ({ ...v, media: media.get(v.id)! }))
  }

  async function video(id: number) {
    const [one] = await withMedia([await catalogue.video(id)])
    return one!
  }

  /** Checks an image by content (JPEG, PNG, WebP), re-encodes it to WebP without metadata and stores it publicly. */
  async function storeImage(data: Buffer) {
    const image = await encodeWebpImage(data, AdminImageRules)
    const key = `images/${beijingYear(now())}/${crypto.randomBytes(16).toString('hex')}.webp`
    await stores.public.put(key, image.data, { contentType: 'image/webp' })
    return { url: stores.public.url(key), width: image.width, height: image.height }
  }

  return {
    // ---- Categories, teachers, courses, chapters: the catalogue's editing, as it is, except where media joins ----
    ...catalogue,
    /** A course with its chapters and videos (each with its media state). */
    course: async (id: number) => {
      const course = await catalogue.course(id)
      return { ...course, videos: await withMedia(course.videos) }
    },
    /** Stores an uploaded cover image and makes it the course's cover. */
    setCourseCover: async (id: number, data: Buffer) => {
      await catalogue.requireCourse(id)
      const image = await storeImage(data)
      return catalogue.setCourseCover(id, image.url)
    },
    uploadImage: storeImage,

    // ---- Videos ----
    /** A course's videos with their media state. */
    videos: async (courseId: number) => {
      return { list: await withMedia(await catalogue.videos(courseId)) }
    },
    video,
    createVideo: async (body: VideoCreate) => {
      return (await withMedia([await catalogue.createVideo(body)]))[0]!
    },
    updateVideo: async (id: number, body: VideoPatch) => {
      return (await withMedia([await catalogue.updateVideo(id, body)]))[0]!
    },
    uploadVideo: (id: number, file: VideoUpload) => videoMedia.upload(id, file),
    retranscode: (id: number) => videoMedia.retranscode(id),
    /** Every video with its course, chapter and media state: the console's media screen (media-library.ts). */
    mediaLibrary: createMediaLibrary({ db, stores }),

    // ---- Entitlements ----
    grant: async (adminId: number, body: EntitlementGrant) => {
      const granted = await grantEntitlement(db, {
        memberId: body.member_id,
        courseId: body.course_id,
        source: 'admin',
        sourceRef: `admin:${adminId}${body.note ? ` ${body.note}` : ''}`,
        expiresAt: date(body.expires_at) ?? null,
        now: now(),
      })
      events?.emit({
        event: 'access.granted',
        member_id: granted.member_id,
        source: 'admin',
        ref: `entitlement:${granted.id} by admin:${adminId}`,
        courses: [granted.course_id],
      })
      return granted
    },
    revoke: async (adminId: number, id: number) => {
      const at = now()
      const revoked = await revokeEntitlementById(db, id, at)
      // Revoking twice keeps the first time and changes nothing: only the first is an event.
      if (revoked.revoked_at === at.toISOString())
        events?.emit({
          event: 'access.revoked',
          member_id: revoked.member_id,
          source: revoked.source,
          ref: `entitlement:${revoked.id} by admin:${adminId}`,
          courses: [revoked.course_id],
        })
      return revoked
    },
    entitlements: async (query: EntitlementListQuery) => {
      return listMemberEntitlements(
        db,
        { memberId: query.member_id, courseId: query.course_id, before: query.cursor, limit: query.limit },
        now(),
      )
    },
  }
}

export type AdminService = ReturnType<typeof createAdminService>

/** Members for the operators' console (member-admin.ts). */
export { createMemberAdmin } from './member-admin.ts'
