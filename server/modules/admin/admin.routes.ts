import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { AppError } from '#server/http/app-error.ts'
import { requireRole } from '#server/http/auth.ts'
import { Codes } from '#server/http/codes.ts'
import { ok } from '#server/http/envelope.ts'
import type { Services } from '#server/services.ts'
import {
  CategoryCreate,
  CategoryListResponse,
  CategoryPatch,
  CategoryResponse,
  ChapterCreate,
  ChapterListQuery,
  ChapterListResponse,
  ChapterPatch,
  ChapterResponse,
  CourseCreate,
  CourseDetailResponse,
  CourseListQuery,
  CourseListResponse,
  CoursePatch,
  CourseResponse,
  EntitlementGrant,
  EntitlementListQuery,
  EntitlementListResponse,
  EntitlementResponse,
  IdParams,
  ImageResponse,
  MediaResponse,
  TeacherCreate,
  TeacherListResponse,
  TeacherPatch,
  TeacherResponse,
  VideoCreate,
  VideoListQuery,
  VideoListResponse,
  VideoPatch,
  VideoResponse,
} from './admin.schema.ts'
import { AdminImageRules } from './admin.service.ts'

const tags = ['admin']
const security = [{ token: [] }]
/** Every route here is for operators: members.role = 'admin' (301 without a session, 403 for anyone else). */
const config = { auth: 'admin' as const }

async function filePart(request: FastifyRequest, maxBytes: number) {
  if (!request.isMultipart()) throw new AppError(Codes.BadRequest, '请用 multipart/form-data 上传文件（file）')
  const part = await request.file({ limits: { fileSize: maxBytes, files: 1 } })
  if (!part || part.fieldname !== 'file') {
    part?.file.resume()
    throw new AppError(Codes.BadRequest, '参数 file 不能为空（file）')
  }
  return part
}

async function imagePart(request: FastifyRequest) {
  const part = await filePart(request, AdminImageRules.maxBytes)
  try {
    return await part.toBuffer()
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(Codes.ImageTooLarge)
    throw err
  }
}

/** The operator API under /api/admin/: catalogue editing, video upload and transcoding, entitlements. */
export async function adminRoutes(app: FastifyInstance, opts: { services: Services }) {
  const { admin, config: appConfig } = opts.services
  const r = app.withTypeProvider<ZodTypeProvider>()
  // Who may call comes before what they sent: a stranger learns nothing from validation messages. (The
  // `config.auth` check of each route runs again later, in preHandler, and agrees.)
  app.addHook('preValidation', async (request) => {
    requireRole(request, 'admin')
  })

  // ---- Categories ----
  r.get(
    '/admin/categories',
    { config, schema: { tags, security, summary: 'All categories', response: { 200: CategoryListResponse } } },
    async () => ok(await admin.categories()),
  )
  r.post(
    '/admin/categories',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Create a category (two levels: an area or a sub-category)',
        body: CategoryCreate,
        response: { 200: CategoryResponse },
      },
    },
    async (request) => ok(await admin.createCategory(request.body)),
  )
  r.patch(
    '/admin/categories/:id',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Edit a category',
        params: IdParams,
        body: CategoryPatch,
        response: { 200: CategoryResponse },
      },
    },
    async (request) => ok(await admin.updateCategory(request.params.id, request.body)),
  )

  // ---- Teachers ----
  r.get(
    '/admin/teachers',
    { config, schema: { tags, security, summary: 'All teachers', response: { 200: TeacherListResponse } } },
    async () => ok(await admin.teachers()),
  )
  r.post(
    '/admin/teachers',
    {
      config,
      schema: { tags, security, summary: 'Create a teacher', body: TeacherCreate, response: { 200: TeacherResponse } },
    },
    async (request) => ok(await admin.createTeacher(request.body)),
  )
  r.patch(
    '/admin/teachers/:id',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Edit a teacher',
        params: IdParams,
        body: TeacherPatch,
        response: { 200: TeacherResponse },
      },
    },
    async (request) => ok(await admin.updateTeacher(request.params.id, request.body)),
  )

  // ---- Courses ----
  r.get(
    '/admin/courses',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Courses of every status, newest first, paged by cursor',
        querystring: CourseListQuery,
        response: { 200: CourseListResponse },
      },
    },
    async (request) => ok(await admin.courses(request.query)),
  )
  r.get(
    '/admin/courses/:id',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'A course with its chapters and videos (and their media state)',
        params: IdParams,
        response: { 200: CourseDetailResponse },
      },
    },
    async (request) => ok(await admin.course(request.params.id)),
  )
  r.post(
    '/admin/courses',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Create a course (prices in fen)',
        body: CourseCreate,
        response: { 200: CourseResponse },
      },
    },
    async (request) => ok(await admin.createCourse(request.body)),
  )
  r.patch(
    '/admin/courses/:id',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Edit a course',
        params: IdParams,
        body: CoursePatch,
        response: { 200: CourseResponse },
      },
    },
    async (request) => ok(await admin.updateCourse(request.params.id, request.body)),
  )
  r.post(
    '/admin/courses/:id/cover',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Upload a course cover (multipart field "file": JPEG, PNG or WebP by content, at most 5 MB)',
        consumes: ['multipart/form-data'],
        params: IdParams,
        response: { 200: CourseResponse },
      },
    },
    async (request) => {
      const data = await imagePart(request)
      return ok(await admin.setCourseCover(request.params.id, data))
    },
  )
  r.post(
    '/admin/images',
    {
      config,
      schema: {
        tags,
        security,
        summary:
          'Upload an image (covers, teacher photos, icons): re-encoded to WebP, at most 1600 px; returns its URL',
        consumes: ['multipart/form-data'],
        response: { 200: ImageResponse },
      },
    },
    async (request) => ok(await admin.uploadImage(await imagePart(request))),
  )

  // ---- Chapters ----
  r.get(
    '/admin/chapters',
    {
      config,
      schema: {
        tags,
        security,
        summary: "A course's chapters",
        querystring: ChapterListQuery,
        response: { 200: ChapterListResponse },
      },
    },
    async (request) => ok(await admin.chapters(request.query.course_id)),
  )
  r.post(
    '/admin/chapters',
    {
      config,
      schema: { tags, security, summary: 'Create a chapter', body: ChapterCreate, response: { 200: ChapterResponse } },
    },
    async (request) => ok(await admin.createChapter(request.body)),
  )
  r.patch(
    '/admin/chapters/:id',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Edit a chapter',
        params: IdParams,
        body: ChapterPatch,
        response: { 200: ChapterResponse },
      },
    },
    async (request) => ok(await admin.updateChapter(request.params.id, request.body)),
  )

  // ---- Videos ----
  r.get(
    '/admin/videos',
    {
      config,
      schema: {
        tags,
        security,
        summary: "A course's videos with their media state",
        querystring: VideoListQuery,
        response: { 200: VideoListResponse },
      },
    },
    async (request) => ok(await admin.videos(request.query.course_id)),
  )
  r.get(
    '/admin/videos/:id',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'A video and its media state: uploaded → transcoding (progress) → ready | failed (error)',
        params: IdParams,
        response: { 200: VideoResponse },
      },
    },
    async (request) => ok(await admin.video(request.params.id)),
  )
  r.post(
    '/admin/videos',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Create a video (then upload its file)',
        body: VideoCreate,
        response: { 200: VideoResponse },
      },
    },
    async (request) => ok(await admin.createVideo(request.body)),
  )
  r.patch(
    '/admin/videos/:id',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Edit a video',
        params: IdParams,
        body: VideoPatch,
        response: { 200: VideoResponse },
      },
    },
    async (request) => ok(await admin.updateVideo(request.params.id, request.body)),
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
      const part = await filePart(request, appConfig.media.uploadMaxBytes)
      const media = await admin.uploadVideo(request.params.id, {
        stream: part.file,
        filename: part.filename,
        truncated: () => part.file.truncated,
      })
      return ok(media, '上传成功，正在排队转码')
    },
  )
  r.post(
    '/admin/videos/:id/transcode',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Transcode the uploaded file again (after a failure)',
        params: IdParams,
        response: { 200: MediaResponse },
      },
    },
    async (request) => ok(await admin.retranscode(request.params.id)),
  )

  // ---- Entitlements ----
  r.get(
    '/admin/entitlements',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Entitlements, newest first, by member and/or course',
        querystring: EntitlementListQuery,
        response: { 200: EntitlementListResponse },
      },
    },
    async (request) => ok(await admin.entitlements(request.query)),
  )
  r.post(
    '/admin/entitlements',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Grant a member a whole course, for ever or until expires_at',
        body: EntitlementGrant,
        response: { 200: EntitlementResponse },
      },
    },
    async (request) => ok(await admin.grant(requireRole(request, 'admin').memberId, request.body)),
  )
  r.post(
    '/admin/entitlements/:id/revoke',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Revoke an entitlement at once',
        params: IdParams,
        response: { 200: EntitlementResponse },
      },
    },
    async (request) => ok(await admin.revoke(request.params.id)),
  )
}
