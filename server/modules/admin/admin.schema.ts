import { z } from 'zod'
import { cursorPage, envelope } from '#server/http/envelope.ts'
import { videoMediaStates } from '#server/modules/media/media.service.ts'
import { JsonId as id, PathId } from '#shared/api/params.ts'
import { AdminChapter, AdminCourse, AdminTeacher, AdminVideo } from '#shared/api/catalogue-editing.ts'

// The operators' API. Catalogue editing's request bodies and queries are shared with the catalogue module
// (#shared/api/catalogue-editing.ts); the entitlement, media and image shapes are here.

const text = (max: number) => z.string().trim().max(max)
const datetime = z.iso.datetime({ offset: true })
const limit = z.coerce.number().int().min(1).max(100).default(20)
const optionalId = PathId.optional()

export const EntitlementGrant = z.strictObject({
  member_id: id,
  course_id: id,
  expires_at: datetime.nullable().optional().describe('ISO 8601 with offset; absent or null: never expires'),
  note: text(200).optional().describe('Why it was granted (kept as source_ref)'),
})
export type EntitlementGrant = z.output<typeof EntitlementGrant>
export const EntitlementListQuery = z.object({
  member_id: optionalId,
  course_id: optionalId,
  cursor: optionalId,
  limit,
})
export type EntitlementListQuery = z.output<typeof EntitlementListQuery>

// ---- Responses ---------------------------------------------------------------------------------------------

const Media = z.object({
  video_id: z.number().int(),
  status: z
    .enum(['none', ...videoMediaStates])
    .describe('none (nothing uploaded), uploaded (queued), transcoding, ready, failed'),
  progress: z.number().int().describe('0–100 while transcoding'),
  error: z.string().nullable().describe('Why the last transcoding failed'),
  playable: z.boolean().describe('An HLS output exists (a video stays playable while a new upload is transcoded)'),
  duration: z.number().nullable(),
  source_name: z.string().nullable(),
  source_bytes: z.number().int().nullable(),
  renditions: z.array(
    z.object({ name: z.string(), width: z.number().int(), height: z.number().int(), bandwidth: z.number().int() }),
  ),
  rendition_progress: z
    .array(z.object({ name: z.string(), height: z.number().int(), percent: z.number().int() }))
    .describe('While transcoding (and once ready): each rendition being made and how far it is, 0–100'),
  poster_url: z.string().nullable(),
  updated_at: z.string().nullable(),
  ready_at: z.string().nullable(),
})
export const Video = AdminVideo.extend({ media: Media })
/** A row of the console's media screen (GET /api/admin/media). */
export const MediaListRow = z.object({
  id: z.number().int(),
  title: z.string(),
  course: z.object({ id: z.number().int(), title: z.string() }),
  chapter: z.object({ id: z.number().int(), title: z.string() }).nullable(),
  duration_seconds: z.number().int(),
  is_free: z.boolean(),
  free_seconds: z.number().int(),
  media: Media,
})
export type MediaListRow = z.output<typeof MediaListRow>
export const Entitlement = z.object({
  id: z.number().int(),
  member_id: z.number().int(),
  course_id: z.number().int(),
  source: z.string(),
  source_ref: z.string().nullable(),
  granted_at: z.string(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  active: z.boolean().describe('Counts now: not revoked and not expired'),
})
export const Image = z.object({ url: z.string(), width: z.number().int(), height: z.number().int() })

export const TeacherResponse = envelope(AdminTeacher)
export const CourseResponse = envelope(AdminCourse)
export const CourseDetailResponse = envelope(
  AdminCourse.extend({ chapters: z.array(AdminChapter), videos: z.array(Video) }),
)
export const VideoResponse = envelope(Video)
export const MediaResponse = envelope(Media)
export const EntitlementResponse = envelope(Entitlement)
export const EntitlementListResponse = envelope(cursorPage(Entitlement))
