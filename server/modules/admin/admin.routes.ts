import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { requireRole } from '#server/http/auth.ts'
import { ok } from '#server/http/envelope.ts'
import {
  AdminCourseListQuery as CourseListQuery,
  CategoryCreate,
  CategoryPatch,
  ChapterCreate,
  ChapterPatch,
  CourseCreate,
  CourseItemsQuery,
  CoursePatch,
  TeacherCreate,
  TeacherPatch,
} from '#shared/api/catalogue-editing.ts'
import {
  CategoryListResponse,
  CategoryResponse,
  ChapterListResponse,
  ChapterResponse,
  CourseDetailResponse,
  CourseListResponse,
  CourseResponse,
  EntitlementGrant,
  EntitlementListQuery,
  EntitlementListResponse,
  EntitlementResponse,
  IdParams,
  ImageResponse,
  TeacherListResponse,
  TeacherResponse,
} from './admin.schema.ts'
import { adminVideoRoutes } from './admin-videos.routes.ts'
import type { AdminService } from './admin.service.ts'
import { imagePart } from './uploads.ts'

const tags = ['admin']
const security = [{ token: [] }]
/** Every route here is for operators: members.role = 'admin' (301 without a session, 403 for anyone else). */
const config = { auth: 'admin' as const }

interface AdminRoutesOptions {
  admin: AdminService
  /** The ceiling of a video file upload (config.media.uploadMaxBytes). */
  videoUploadMaxBytes: number
}

/** The operator API under /api/admin/: catalogue editing, video upload and transcoding, entitlements. */
export async function adminRoutes(app: FastifyInstance, opts: AdminRoutesOptions) {
  const { admin } = opts
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
        querystring: CourseItemsQuery,
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

  // ---- Videos: admin-videos.routes.ts (in this context, so the role check above covers them) ----
  await app.register(adminVideoRoutes, { admin, videoUploadMaxBytes: opts.videoUploadMaxBytes })

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
