import { adminPlugin } from '#server/http/route.ts'
import { CourseItemsQuery, VideoCreate, VideoPatch } from '#shared/api/catalogue-editing.ts'
import { IdParams, MediaResponse, VideoListResponse, VideoResponse } from './admin.schema.ts'
import type { AdminService } from './admin.service.ts'
import { filePart } from './uploads.ts'

/** What the operator API takes (admin.routes.ts hands the same to these routes). */
export interface AdminRoutesOptions {
  admin: AdminService
  /** The ceiling of a video file upload (config.media.uploadMaxBytes). */
  videoUploadMaxBytes: number
}

/** Videos under /api/admin/videos: editing, upload and transcoding (registered by admin.routes.ts). */
export const adminVideoRoutes = adminPlugin((r, { admin, videoUploadMaxBytes }: AdminRoutesOptions) => {
  r.get(
    '/admin/videos',
    {
      summary: "A course's videos with their media state",
      querystring: CourseItemsQuery,
      response: VideoListResponse,
    },
    async (request) => admin.videos(request.query.course_id),
  )
  r.get(
    '/admin/videos/:id',
    {
      summary: 'A video and its media state: uploaded → transcoding (progress) → ready | failed (error)',
      params: IdParams,
      response: VideoResponse,
    },
    async (request) => admin.video(request.params.id),
  )
  r.post(
    '/admin/videos',
    { summary: 'Create a video (then upload its file)', body: VideoCreate, response: VideoResponse },
    async (request) => admin.createVideo(request.body),
  )
  r.patch(
    '/admin/videos/:id',
    { summary: 'Edit a video', params: IdParams, body: VideoPatch, response: VideoResponse },
    async (request) => admin.updateVideo(request.params.id, request.body),
  )
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
    },
    async (request) => admin.retranscode(request.params.id),
  )
})
