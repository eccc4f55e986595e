import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '#server/http/envelope.ts'
import { apiRoutes } from '#server/http/route.ts'
import { CourseItemsQuery, VideoCreate, VideoPatch } from '#shared/api/catalogue-editing.ts'
import { IdParams, MediaResponse, VideoListResponse, VideoResponse } from './admin.schema.ts'
import type { AdminService } from './admin.service.ts'
import { filePart } from './uploads.ts'

const tags = ['admin']
const security = [{ token: [] }]
const config = { auth: 'admin' as const }

interface AdminVideoRoutesOptions {
  admin: AdminService
  /** The ceiling of a video file upload (config.media.uploadMaxBytes). */
  videoUploadMaxBytes: number
}

/** Videos under /api/admin/videos: editing, upload and transcoding (registered by admin.routes.ts). */
export async function adminVideoRoutes(app: FastifyInstance, opts: AdminVideoRoutesOptions) {
  const { admin, videoUploadMaxBytes } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()
  const api = apiRoutes(app, { tags, config })

  api.get(
    '/admin/videos',
    {
      summary: "A course's videos with their media state",
      querystring: CourseItemsQuery,
      response: VideoListResponse,
    },
    async (request) => admin.videos(request.query.course_id),
  )
  api.get(
    '/admin/videos/:id',
    {
      summary: 'A video and its media state: uploaded → transcoding (progress) → ready | failed (error)',
      params: IdParams,
      response: VideoResponse,
    },
    async (request) => admin.video(request.params.id),
  )
  api.post(
    '/admin/videos',
    { summary: 'Create a video (then upload its file)', body: VideoCreate, response: VideoResponse },
    async (request) => admin.createVideo(request.body),
  )
  api.patch(
    '/admin/videos/:id',
    { summary: 'Edit a video', params: IdParams, body: VideoPatch, response: VideoResponse },
    async (request) => admin.updateVideo(request.params.id, request.body),
  )
  r.post(
    '/admin/videos/:id/upload',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Upload the video file (multipart field "file"), streamed to storage; transcoding is queued',
        description:
          'MP4/MOV, WebM/MKV, AVI, MPEG-TS or FLV, recognised by content and confirmed by ffprobe (470 otherwise); at most VIDEO_UPLOAD_MAX_BYTES (471); 472 while the video is being transcoded. Follow the state with GET /api/admin/videos/:id.',
        consumes: ['multipart/form-data'],
        params: IdParams,
        response: { 200: MediaResponse },
      },
    },
    async (request) => {
      const part = await filePart(request, videoUploadMaxBytes)
      const media = await admin.uploadVideo(request.params.id, {
        stream: part.file,
        filename: part.filename,
        truncated: () => part.file.truncated,
      })
      return ok(media, '上传成功，正在排队转码')
    },
  )
  api.post(
    '/admin/videos/:id/transcode',
    {
      summary: 'Transcode the uploaded file again (after a failure)',
      params: IdParams,
      response: MediaResponse,
    },
    async (request) => admin.retranscode(request.params.id),
  )
}
