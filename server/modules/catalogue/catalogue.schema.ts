import { envelope } from '#server/http/envelope.ts'
import { CategoryTree, CourseDetail, CourseList, HotWords, Teacher } from '#shared/api/catalogue.ts'

export const CourseDetailResponse = envelope(CourseDetail)
export const CourseListResponse = envelope(CourseList)
export const CategoryTreeResponse = envelope(CategoryTree)
export const TeacherResponse = envelope(Teacher)
export const HotWordsResponse = envelope(HotWords)
