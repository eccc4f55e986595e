import { requireRole } from '#server/http/auth.ts'
import { adminPlugin } from '#server/http/route.ts'
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
import { adminVideoRoutes, type AdminRoutesOptions } from './admin-videos.routes.ts'
import { imagePart } from './uploads.ts'

/** The operator API under /api/admin/: catalogue editing, video upload and transcoding, entitlements. */
export const adminRoutes = adminPlugin(async (r, opts: AdminRoutesOptions, app) => {
  const { admin } = opts
  // Who may call comes before what they sent: a stranger learns nothing from validation messages. (The
  // `config.auth` check of each route runs again later, in preHandler, and agrees.)
  app.addHook('preValidation', async (request) => {
    requireRole(request, 'admin')
  })

  // ---- Categories ----
  r.get('/admin/categories', { summary: 'All categories', response: CategoryListResponse }, async () =>
    admin.categories(),
  )
  r.post(
    '/admin/categories',
    {
      summary: 'Create a category (two levels: an area or a sub-category)',
      body: CategoryCreate,
      response: CategoryResponse,
    },
    async (request) => admin.createCategory(request.body),
  )
  r.patch(
    '/admin/categories/:id',
    { summary: 'Edit a category', params: IdParams, body: CategoryPatch, response: CategoryResponse },
    async (request) => admin.updateCategory(request.params.id, request.body),
  )

  // ---- Teachers ----
  r.get('/admin/teachers', { summary: 'All teachers', response: TeacherListResponse }, async () => admin.teachers())
  r.post(
    '/admin/teachers',
    { summary: 'Create a teacher', body: TeacherCreate, response: TeacherResponse },
    async (request) => admin.createTeacher(request.body),
  )
  r.patch(
    '/admin/teachers/:id',
    { summary: 'Edit a teacher', params: IdParams, body: TeacherPatch, response: TeacherResponse },
    async (request) => admin.updateTeacher(request.params.id, request.body),
  )

  // ---- Courses ----
  r.get(
    '/admin/courses',
    {
      summary: 'Courses of every status, newest first, paged by cursor',
      querystring: CourseListQuery,
      response: CourseListResponse,
    },
    async (request) => admin.courses(request.query),
  )
  r.get(
    '/admin/courses/:id',
    {
      summary: 'A course with its chapters and videos (and their media state)',
      params: IdParams,
      response: CourseDetailResponse,
    },
    async (request) => admin.course(request.params.id),
  )
  r.post(
    '/admin/courses',
    { summary: 'Create a course (prices in fen)', body: CourseCreate, response: CourseResponse },
    async (request) => admin.createCourse(request.body),
  )
  r.patch(
    '/admin/courses/:id',
    { summary: 'Edit a course', params: IdParams, body: CoursePatch, response: CourseResponse },
    async (request) => admin.updateCourse(request.params.id, request.body),
  )
  r.post(
    '/admin/courses/:id/cover',
    {
      summary: 'Upload a course cover (multipart field "file": JPEG, PNG or WebP by content, at most 5 MB)',
      consumes: ['multipart/form-data'],
      params: IdParams,
      response: CourseResponse,
    },
    async (request) => admin.setCourseCover(request.params.id, await imagePart(request)),
  )
  r.post(
    '/admin/images',
    {
      summary: 'Upload an image (covers, teacher photos, icons): re-encoded to WebP, at most 1600 px; returns its URL',
      consumes: ['multipart/form-data'],
      response: ImageResponse,
    },
    async (request) => admin.uploadImage(await imagePart(request)),
  )

  // ---- Chapters ----
  r.get(
    '/admin/chapters',
    { summary: "A course's chapters", querystring: CourseItemsQuery, response: ChapterListResponse },
    async (request) => admin.chapters(request.query.course_id),
  )
  r.post(
    '/admin/chapters',
    { summary: 'Create a chapter', body: ChapterCreate, response: ChapterResponse },
    async (request) => admin.createChapter(request.body),
  )
  r.patch(
    '/admin/chapters/:id',
    { summary: 'Edit a chapter', params: IdParams, body: ChapterPatch, response: ChapterResponse },
    async (request) => admin.updateChapter(request.params.id, request.body),
  )

  // ---- Videos: admin-videos.routes.ts (in this context, so the role check above covers them) ----
  await app.register(adminVideoRoutes, opts)

  // ---- Entitlements ----
  r.get(
    '/admin/entitlements',
    {
      summary: 'Entitlements, newest first, by member and/or course',
      querystring: EntitlementListQuery,
      response: EntitlementListResponse,
    },
    async (request) => admin.entitlements(request.query),
  )
  r.post(
    '/admin/entitlements',
    {
      summary: 'Grant a member a whole course, for ever or until expires_at',
      body: EntitlementGrant,
      response: EntitlementResponse,
    },
    async (request, staffId) => admin.grant(staffId, request.body),
  )
  r.post(
    '/admin/entitlements/:id/revoke',
    { summary: 'Revoke an entitlement at once', params: IdParams, response: EntitlementResponse },
    async (request) => admin.revoke(request.params.id),
  )
})
