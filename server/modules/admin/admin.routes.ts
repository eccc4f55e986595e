import { envelope, listEnvelope } from '#server/http/envelope.ts'
import { listRoute } from '#server/http/admin-list.ts'
import { adminPlugin, GroupAccess } from '#server/http/route.ts'
import {
  AdminCategory,
  AdminChapter,
  AdminCourse,
  AdminCourseListQuery as CourseListQuery,
  AdminTeacher,
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
import { IdParams } from '#shared/api/params.ts'
import {
  CourseDetailResponse,
  CourseResponse,
  EntitlementGrant,
  EntitlementListQuery,
  EntitlementListResponse,
  EntitlementResponse,
  Image,
  TeacherResponse,
} from './admin.schema.ts'
import { adminVideoRoutes, courseScopes, type AdminRoutesOptions } from './admin-videos.routes.ts'
import { imagePart } from './uploads.ts'

/** The operator API under /api/admin/: catalogue editing, video upload and transcoding, entitlements. */
export const adminRoutes = adminPlugin(GroupAccess.catalogue, async (r, opts: AdminRoutesOptions, app) => {
  const { admin } = opts
  // Who may call comes before what they sent: server/http/auth.ts checks the route's permission in preValidation,
  // so a stranger learns nothing from validation messages.

  // ---- Categories ----
  r.records('/admin/categories', {
    response: envelope(AdminCategory),
    list: { summary: 'All categories', response: listEnvelope(AdminCategory), handler: admin.categories },
    create: {
      summary: 'Create a category (two levels: an area or a sub-category)',
      body: CategoryCreate,
      handler: admin.createCategory,
    },
    edit: { summary: 'Edit a category', body: CategoryPatch, handler: admin.updateCategory },
  })

  // ---- Teachers ----
  r.records('/admin/teachers', {
    response: TeacherResponse,
    list: { summary: 'All teachers', response: listEnvelope(AdminTeacher), handler: admin.teachers },
    create: { summary: 'Create a teacher', body: TeacherCreate, handler: admin.createTeacher },
    edit: { summary: 'Edit a teacher', body: TeacherPatch, handler: admin.updateTeacher },
  })

  // ---- Courses (a teacher: only their own, shared/staff/roles.ts) ----
  const { own } = courseScopes(admin)
  listRoute(r, '/admin/courses', {
    summary: 'Courses of every status by type, status, category and part of the title (paged, sorted)',
    description: 'A teacher gets only the courses they teach.',
    querystring: CourseListQuery,
    row: AdminCourse,
    permission: 'courses.read',
    scope: 'list',
    list: admin.courses,
  })
  r.records('/admin/courses', {
    response: CourseResponse,
    detail: {
      summary: 'A course with its chapters and videos (and their media state)',
      response: CourseDetailResponse,
      handler: (id) => admin.course(id),
      permission: 'courses.read',
      scope: own('course', 'params'),
    },
    create: {
      summary: 'Create a course (prices in fen)',
      body: CourseCreate,
      handler: admin.createCourse,
    },
    edit: {
      summary: 'Edit a course',
      body: CoursePatch,
      handler: admin.updateCourse,
      scope: own('course', 'params'),
    },
  })
  r.post(
    '/admin/courses/:id/cover',
    {
      summary: 'Upload a course cover (multipart field "file": JPEG, PNG or WebP by content, at most 5 MB)',
      consumes: ['multipart/form-data'],
      params: IdParams,
      response: CourseResponse,
      scope: own('course', 'params'),
    },
    async (request) => admin.setCourseCover(request.params.id, await imagePart(request)),
  )
  r.post(
    '/admin/images',
    {
      summary: 'Upload an image (covers, teacher photos, icons): re-encoded to WebP, at most 1600 px; returns its URL',
      consumes: ['multipart/form-data'],
      response: envelope(Image),
    },
    async (request) => admin.uploadImage(await imagePart(request)),
  )

  // ---- Chapters ----
  r.records('/admin/chapters', {
    response: envelope(AdminChapter),
    list: {
      summary: "A course's chapters",
      querystring: CourseItemsQuery,
      response: listEnvelope(AdminChapter),
      handler: (query) => admin.chapters(query.course_id),
      permission: 'courses.read',
      scope: own('course', 'query'),
    },
    create: {
      summary: 'Create a chapter',
      body: ChapterCreate,
      handler: admin.createChapter,
      scope: own('course', 'body'),
    },
    edit: {
      summary: 'Edit a chapter',
      body: ChapterPatch,
      handler: admin.updateChapter,
      scope: own('chapter', 'params'),
    },
  })

  // ---- Videos: admin-videos.routes.ts (in this context, so the role check above covers them) ----
  await app.register(adminVideoRoutes, opts)

  // ---- Entitlements ----
  r.get(
    '/admin/entitlements',
    {
      permission: 'members.read',
      summary: 'Entitlements, newest first, by member and/or course',
      querystring: EntitlementListQuery,
      response: EntitlementListResponse,
    },
    async (request) => admin.entitlements(request.query),
  )
  r.post(
    '/admin/entitlements',
    {
      permission: 'members.entitlements',
      summary: 'Grant a member a whole course, for ever or until expires_at',
      body: EntitlementGrant,
      response: EntitlementResponse,
    },
    async (request, staffId) => admin.grant(staffId, request.body),
  )
  r.post(
    '/admin/entitlements/:id/revoke',
    {
      permission: 'members.entitlements',
      summary: 'Revoke an entitlement at once',
      params: IdParams,
      response: EntitlementResponse,
    },
    async (request, staffId) => admin.revoke(staffId, request.params.id),
  )
})
