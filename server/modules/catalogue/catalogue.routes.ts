import { apiPlugin } from '#server/http/route.ts'
import type { CatalogueService } from './catalogue.service.ts'
import {
  CategoryTreeResponse,
  CourseDetailResponse,
  CourseListResponse,
  HotWordsResponse,
  TeacherResponse,
} from './catalogue.schema.ts'
import { CourseListQuery, CourseQuery, CourseTeacherQuery } from '#shared/api/catalogue.ts'

/**
 * Public catalogue reads: categories, course lists, course detail, a course's teacher and hot words (spec 7). A
 * teacher's page (GET /teacher) carries the follow state: server/modules/follows.
 */
export const catalogueRoutes = apiPlugin(
  { tags: ['catalogue'], token: false },
  (r, { catalogue }: { catalogue: CatalogueService }) => {
    for (const url of ['/cate', '/v2/cate']) {
      r.get(
        url,
        {
          summary: 'The category tree: top categories with their sub-categories and course counts',
          response: CategoryTreeResponse,
        },
        async () => ({ list: await catalogue.categoryTree() }),
      )
    }

    r.get(
      '/v2/course_list',
      {
        summary: 'Published courses, filtered and sorted, paged by cursor',
        querystring: CourseListQuery,
        response: CourseListResponse,
      },
      async (request) => catalogue.courseList(request.query),
    )

    // Answered from the course cache's JSON as it is (catalogue.service.ts KeptCourse): encoded through the same
    // schema once, when the course was read, not on every request.
    for (const url of ['/course', '/v2/course']) {
      r.raw.get(
        url,
        {
          summary: 'Course detail: intro, teacher, chapters with videos, and a system course’s courses',
          querystring: CourseQuery,
          response: { 200: CourseDetailResponse },
        },
        async (request, reply) =>
          reply.type('application/json; charset=utf-8').send(await catalogue.courseDetailAnswer(request.query.id)),
      )
    }

    r.get(
      '/course/teacher',
      { summary: 'The teacher of a course', querystring: CourseTeacherQuery, response: TeacherResponse },
      async (request) => catalogue.courseTeacher(request.query.course_id),
    )

    r.get('/hotWords', { summary: 'Hot search words, in order', response: HotWordsResponse }, async () => ({
      list: await catalogue.hotWords(),
    }))
  },
)
