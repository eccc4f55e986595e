import { listEnvelope } from '#server/http/envelope.ts'
import { listRoute } from '#server/http/admin-list.ts'
import type { RouteScope } from '#server/http/auth.ts'
import { adminPlugin, GroupAccess } from '#server/http/route.ts'
import { MediaListQuery } from '#shared/api/admin-media.ts'
import { CourseItemsQuery, VideoCreate, VideoPatch } from '#shared/api/catalogue-editing.ts'
import { IdParams } from '#shared/api/params.ts'
import { MediaListRow, MediaResponse, Video, VideoResponse } from './admin.schema.ts'
import type { AdminService } from './admin.service.ts'
import { filePart } from './uploads.ts'

/** What the operator API takes (admin.routes.ts hands the same to these routes). */
export interface AdminRoutesOptions {
  admin: AdminService
  /** The ceiling of a video file upload (config.media.uploadMaxBytes). */
  videoUploadMaxBytes: number
}

/**
 * The course-bound routes' scope (server/http/auth.ts RouteScope): `own(kind, from)` names the owner of the course,
 * chapter or video the request is about (its id in the path, or the course_id of the query or body), so a teacher
 * reaches only the courses they teach.
 */
export function courseScopes(admin: AdminService) {
  return {
    own:
      (kind: 'course' | 'chapter' | 'video', from: 'params' | 'query' | 'body'): RouteScope =>
      async (request) => {
        const source = (request[from] ?? {}) as { id?: number; course_id?: number }
        return admin.ownerOf(kind, Number(from === 'params' ? source.id : source.course_id))
      },
  }
}

/** Videos under /api/admin/videos: editing, upload and transcoding (registered by admin.routes.ts). */
export const adminVideoRoutes = adminPlugin(
  GroupAccess.catalogue,
  (r, { admin, videoUploadMaxBytes }: AdminRoutesOptions) => {
    const { own } = courseScopes(admin)
    listRoute(r, '/admin/media', {
      summary: "Every video with its course, chapter and media state (the console's media screen; paged, sorted)",
      description:
        'Filters: course_id, video (one video), state (none, uploaded, transcoding, ready, failed), q (part of the title). Poll it while a video is uploaded or transcoding: media.rendition_progress tells how far each rendition is.',
      querystring: MediaListQuery,
      row: MediaListRow,
      // Every course's videos: not for a teacher, who reaches only their own courses.
      permission: 'courses.read',
      list: admin.mediaLibrary,
    })
    r.records('/admin/videos', {
      response: VideoResponse,
      list: {
        summary: "A course's videos with their media state",
        querystring: CourseItemsQuery,
        response: listEnvelope(Video),
        handler: (query) => admin.videos(query.course_id),
        permission: 'courses.read',
        scope: own('course', 'query'),
      },
      detail: {
        summary: 'A video and its media state: uploaded → transcoding (progress) → ready | failed (error)',
        response: VideoResponse,
        handler: admin.video,
        permission: 'courses.read',
        scope: own('video', 'params'),
      },
      create: {
        summary: 'Create a video (then upload its file)',
        body: VideoCreate,
        handler: (body) => admin.createVideo(body),
        scope: own('course', 'body'),
      },
      edit: {
        summary: 'Edit a video',
        body: VideoPatch,
        handler: (id, body) => admin.updateVideo(id, body),
        scope: own('video', 'params'),
      },
    })
    r.post(
      '/admin/videos/:id/upload',
      {
        summary: 'Upload the video file (multipart field "file"), streamed to storage; transcoding is queued',
        description:
          'MP4/MOV, WebM/MKV, AVI, MPEG-TS or FLV, recognised by content and confirmed by ffprobe (470 otherwise); at most VIDEO_UPLOAD_MAX_BYTES (471); 472 while the video is being transcoded. Follow the state with GET /api/admin/videos/:id.',
        consumes: ['multipart/form-data'],
        params: IdParams,
        response: MediaResponse,
        msg: '上传成功，正在排队转码',
        scope: own('video', 'params'),
      },
      async (request) => {
        const part = await filePart(request, videoUploadMaxBytes)
        return admin.uploadVideo(request.params.id, {
          stream: part.file,
          filename: part.filename,
          truncated: () => part.file.truncated,
        })
      },
    )
    r.post(
      '/admin/videos/:id/transcode',
      {
        summary: 'Transcode the uploaded file again (after a failure)',
        params: IdParams,
        response: MediaResponse,
        scope: own('video', 'params'),
      },
      async (request) => admin.retranscode(request.params.id),
    )
  },
)
