import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '#server/http/envelope.ts'
import type { CatalogueService } from './catalogue.service.ts'
import {
  CategoryTreeResponse,
  CourseDetailResponse,
  CourseListResponse,
  HotWordsResponse,
  TeacherResponse,
} from './catalogue.schema.ts'
import { CourseListQuery, CourseQuery, CourseTeacherQuery } from '#shared/api/catalogue.ts'

const tags = ['catalogue']

interface CatalogueRoutesOptions {
  catalogue: CatalogueService
}

/**
 * Public catalogue reads: categories, course lists, course detail, a course's teacher and hot words (spec 7). A
 * teacher's page (GET /teacher) carries the follow state: server/modules/follows.
 */
export async function catalogueRoutes(app: FastifyInstance, opts: CatalogueRoutesOptions) {
  const { catalogue } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()

  for (const url of ['/cate', '/v2/cate']) {
    r.get(
      url,
      {
        schema: {
          tags,
          summary: 'The category tree: top categories with their sub-categories and course counts',
          response: { 200: CategoryTreeResponse },
        },
      },
      async () => ok({ list: await catalogue.categoryTree() }),
    )
  }

  r.get(
    '/v2/course_list',
    {
      schema: {
        tags,
        summary: 'Published courses, filtered and sorted, paged by cursor',
        querystring: CourseListQuery,
        response: { 200: CourseListResponse },
      },
    },
    async (request) => ok(await catalogue.courseList(request.query)),
  )

  for (const url of ['/course', '/v2/course']) {
    r.get(
      url,
      {
        schema: {
          tags,
          summary: 'Course detail: intro, teacher, chapters with videos, and a system course’s courses',
          querystring: CourseQuery,
          response: { 200: CourseDetailResponse },
        },
      },
      async (request) => ok(await catalogue.courseDetail(request.query.id)),
    )
  }

  r.get(
    '/course/teacher',
    {
      schema: {
        tags,
        summary: 'The teacher of a course',
        querystring: CourseTeacherQuery,
        response: { 200: TeacherResponse },
      },
    },
    async (request) => ok(await catalogue.courseTeacher(request.query.course_id)),
  )

  r.get(
    '/hotWords',
    { schema: { tags, summary: 'Hot search words, in order', response: { 200: HotWordsResponse } } },
    async () => ok({ list: await catalogue.hotWords() }),
  )
}
