import type { CourseCard } from '#shared/api/catalogue.ts'

/** What a course card (CourseRow, CourseTile and their price) shows of a course. */
export type CardFields = Pick<
  CourseCard,
  | 'id'
  | 'type'
  | 'title'
  | 'cover'
  | 'price_fen'
  | 'original_price_fen'
  | 'is_free'
  | 'vip_free'
  | 'student_count'
  | 'teacher_name'
>

/**
 * A course cut to what its card shows, for the loader data of the server-rendered lists: the page's data is
 * serialised into its HTML and parsed again in the browser, so fields no card reads (the subtitle, a live course's
 * start) are bytes and work on every render (issue 11 §3).
 */
export function cardFields(course: CardFields): CardFields {
  return {
    id: course.id,
    type: course.type,
    title: course.title,
    cover: course.cover,
    price_fen: course.price_fen,
    original_price_fen: course.original_price_fen,
    is_free: course.is_free,
    vip_free: course.vip_free,
    student_count: course.student_count,
    teacher_name: course.teacher_name,
  }
}
