import { entitlementSources, type EntitlementSource } from '#server/db/schema/access.ts'
import type { CourseFacts, LessonFacts } from '#server/modules/catalogue/catalogue.service.ts'

// The access rule itself, as pure functions of the catalogue's facts and the member's rights (no I/O): the one
// place that says what opens a lesson or a course.

/** What is asked about: a lesson (a video) or a whole course. */
export type AccessTarget = { videoId: number } | { courseId: number }

/**
 * Why access is given, in this order: the course is free; the lesson is free; an entitlement that counts now (by
 * its source, to the course itself or to a system course containing it); a running VIP membership on a VIP-free
 * course; a staff member who may check any lesson (`media.preview`: the console's preview; lessons only, it owns
 * no course); and, only when none of these opens the lesson, its free preview.
 */
const accessWhys = [
  'free_course',
  'free_lesson',
  ...entitlementSources,
  'vip_membership',
  'staff_preview',
  'preview',
] as const
export type AccessWhy = (typeof accessWhys)[number]

/**
 * The answer of the access function.
 *
 * | situation                                   | allowed | why                          | until | expiresAt          |
 * | ------------------------------------------- | ------- | ---------------------------- | ----- | ------------------ |
 * | free course / free lesson                   | true    | ['free_course'] …            | null  | null (for ever)    |
 * | entitlements and/or VIP                     | true    | every source, e.g. ['admin'] | null  | latest end or null |
 * | lesson with a preview, nothing else         | true    | ['preview']                  | s     | null               |
 * | nothing                                     | false   | []                           | 0     | null               |
 * | unknown lesson or course (`found: false`)   | false   | []                           | 0     | null               |
 *
 * Courses have no preview: a course answer is all (`until` null) or nothing (`until` 0).
 */
export interface AccessAnswer {
  /** Something may be watched now: the whole lesson or course, or the lesson's preview. */
  allowed: boolean
  /** Every source that gives access now, without repeats, in the order of `accessWhys`. */
  why: AccessWhy[]
  /** Until which second of the lesson: null to the end, the preview's end for a preview, 0 without access. */
  until: number | null
  /**
   * Until when the full access lasts if nothing changes: the latest end among its sources (access needs only
   * one); null when one of them never ends, and for previews and refusals.
   */
  expiresAt: Date | null
  /** False when the lesson or course does not exist. */
  found: boolean
}

/**
 * The member's rights that matter for some courses: entitlements that count now, a running VIP's end, and whether
 * their staff roles let them play any lesson (`media.preview`; asked for lessons only).
 */
export interface MemberRights {
  grants: readonly { courseId: number; source: EntitlementSource; expiresAt: Date | null }[]
  vipUntil: Date | null
  staffPreview?: boolean
}

/** An anonymous visitor's rights. */
export const noRights: MemberRights = { grants: [], vipUntil: null }

export const notFound: AccessAnswer = { allowed: false, why: [], until: 0, expiresAt: null, found: false }

const whyOrder = new Map<AccessWhy, number>(accessWhys.map((w, i) => [w, i]))

/** Full access from the course's side: free, entitlements (own or a containing system course's), VIP. */
function courseSources(course: CourseFacts, rights: MemberRights) {
  const sources: { why: AccessWhy; end: Date | null }[] = []
  if (course.isFree) sources.push({ why: 'free_course', end: null })
  for (const g of rights.grants)
    if (g.courseId === course.id || course.systemCourseIds.includes(g.courseId))
      sources.push({ why: g.source, end: g.expiresAt })
  if (course.vipFree && rights.vipUntil) sources.push({ why: 'vip_membership', end: rights.vipUntil })
  return sources
}

function fullAccess(sources: { why: AccessWhy; end: Date | null }[]): AccessAnswer {
  const why = [...new Set(sources.map((s) => s.why))].sort((a, b) => whyOrder.get(a)! - whyOrder.get(b)!)
  let expiresAt: Date | null = sources[0]!.end
  for (const s of sources) {
    if (s.end === null || expiresAt === null) expiresAt = null
    else if (s.end > expiresAt) expiresAt = s.end
  }
  return { allowed: true, why, until: null, expiresAt, found: true }
}

const refused: AccessAnswer = { allowed: false, why: [], until: 0, expiresAt: null, found: true }

/** The access a member with `rights` has to a lesson. */
export function decideLesson(lesson: LessonFacts, rights: MemberRights): AccessAnswer {
  const sources = courseSources(lesson.course, rights)
  if (lesson.isFree) sources.push({ why: 'free_lesson', end: null })
  if (rights.staffPreview) sources.push({ why: 'staff_preview', end: null })
  if (sources.length > 0) return fullAccess(sources)
  if (lesson.freeSeconds > 0)
    return { allowed: true, why: ['preview'], until: lesson.freeSeconds, expiresAt: null, found: true }
  return refused
}

/** The access a member with `rights` has to a whole course. */
export function decideCourse(course: CourseFacts, rights: MemberRights): AccessAnswer {
  const sources = courseSources(course, rights)
  return sources.length > 0 ? fullAccess(sources) : refused
}

/** The course ids whose entitlements matter for these courses: their own and the system courses containing them. */
export function rightCourseIds(courses: Iterable<Pick<CourseFacts, 'id' | 'systemCourseIds'>>): number[] {
  const ids = new Set<number>()
  for (const c of courses) {
    ids.add(c.id)
    for (const s of c.systemCourseIds) ids.add(s)
  }
  return [...ids]
}
