import type { CategoryRow, ChapterRow, CourseRow, TeacherRow, VideoRow } from './editing.repository.ts'

// The operators' catalogue editing (editing.ts): rows to the admin API's snake_case shapes.

export const toCategory = (r: CategoryRow) => ({
  id: r.id,
  parent_id: r.parentId,
  name: r.name,
  icon: r.icon,
  sort: r.sort,
  visible: r.visible,
})
export const toTeacher = (r: TeacherRow) => ({
  id: r.id,
  name: r.name,
  title: r.title,
  avatar_url: r.avatarUrl,
  intro: r.intro,
  sort: r.sort,
  member_id: r.memberId,
})
export const toChapter = (r: ChapterRow) => ({ id: r.id, course_id: r.courseId, title: r.title, sort: r.sort })
export const toCourse = (r: CourseRow) => ({
  id: r.id,
  type: r.type,
  title: r.title,
  subtitle: r.subtitle,
  cover_url: r.coverUrl,
  intro: r.intro,
  category_id: r.categoryId,
  teacher_id: r.teacherId,
  price_fen: r.priceFen,
  original_price_fen: r.originalPriceFen,
  points_price: r.pointsPrice,
  is_free: r.isFree,
  vip_free: r.vipFree,
  status: r.status,
  level: r.level,
  tags: r.tags,
  live_starts_at: r.liveStartsAt?.toISOString() ?? null,
  live_ends_at: r.liveEndsAt?.toISOString() ?? null,
  live_pull_url: r.livePullUrl,
  consult_qr: r.consultQr,
  consult_url: r.consultUrl,
  sort: r.sort,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
})
/** A video's catalogue fields (the admin API adds its media state). */
export const toVideo = (v: VideoRow) => ({
  id: v.id,
  course_id: v.courseId,
  chapter_id: v.chapterId,
  title: v.title,
  duration_seconds: v.durationSeconds,
  free_seconds: v.freeSeconds,
  is_free: v.isFree,
  sort: v.sort,
})
