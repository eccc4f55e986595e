import type { CourseCard, CourseType, Teacher } from '#shared/api/catalogue.ts'

// Rows to the API's snake_case shapes, shared by the catalogue's reads (course page, lists, search, recommendations).

/** The row shape every course card is made from (a course with its teacher's name). */
export interface CourseCardRow {
  id: number
  type: CourseType
  title: string
  subtitle: string
  coverUrl: string
  priceFen: number
  originalPriceFen: number | null
  isFree: boolean
  vipFree: boolean
  studentCount: number
  liveStartsAt: Date | string | null
  teacherName?: string | null
  teacher?: { name: string } | null
}

/** A card row as the prepared statements select it (`courseCardColumnsSql` in catalogue.repository.ts). */
export interface CourseCardSqlRow extends CourseCardRow {
  liveStartsAt: Date | null
  teacherName: string | null
}

export function iso(value: Date | string | null): string | null {
  if (value === null) return null
  // Nested rows of a relational query arrive as JSON text; top-level ones as Date.
  return (
    value instanceof Date
      ? value
      : new Date(value.endsWith('Z') || /[+-]\d\d(:?\d\d)?$/.test(value) ? value : `${value}Z`)
  ).toISOString()
}

/** What a course card and the course page both show: what the course is, its cover, its price and its students. */
function courseBasics(row: Omit<CourseCardRow, 'liveStartsAt' | 'teacherName' | 'teacher'>) {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    subtitle: row.subtitle,
    cover: row.coverUrl,
    price_fen: row.priceFen,
    original_price_fen: row.originalPriceFen,
    is_free: row.isFree,
    vip_free: row.vipFree,
    student_count: row.studentCount,
  }
}

/** Presents a course as a card (snake_case API fields). */
export function presentCourseCard(row: CourseCardRow): CourseCard {
  return {
    ...courseBasics(row),
    teacher_name: row.teacherName ?? row.teacher?.name ?? null,
    live_starts_at: iso(row.liveStartsAt),
  }
}

export function toTeacher(row: {
  id: number
  name: string
  title: string
  avatarUrl: string | null
  intro: string
}): Teacher {
  return { id: row.id, name: row.name, title: row.title, avatar: row.avatarUrl, intro: row.intro }
}
