import { data, redirect, type RouterContextProvider } from 'react-router'
import type { Services } from '#server/services.ts'
import type { CourseType } from '#shared/api/catalogue.ts'
import { courseHref } from '#app/components/course-card/course-format.ts'
import { services } from '#app/lib/services-context.ts'
import type { Missing } from '#app/components/error-page/error-page.tsx'

/**
 * The server's 404 AppError as seen from a page loader. The page bundle carries its own copy of that class, so
 * `instanceof` would not match the one the services throw: recognise it by shape instead.
 */
export function isAppNotFound(error: unknown): error is Error & { entry: { code: number } } {
  if (!(error instanceof Error) || error.name !== 'AppError') return false
  const entry = (error as { entry?: { code?: unknown } }).entry
  return entry?.code === 404
}

/**
 * Runs a catalogue read for a page loader: a 404 from the service becomes the page's 404 (the error page says
 * "This page could not be found", and the service's sentence under it); anything else propagates as a 500.
 */
export async function orNotFound<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    if (isAppNotFound(error)) throw data<Missing>({ missing: error.message }, { status: 404 })
    throw error
  }
}

/** A positive id from a route segment or query value ("1001", "1001.html"); null when it is not one. */
export function parseId(value: string | null | undefined): number | null {
  if (!value) return null
  const m = /^([1-9]\d{0,9})(?:\.html)?$/.exec(value)
  if (!m) return null
  const n = Number(m[1])
  return n <= 2_147_483_647 ? n : null
}

/** A 404 for a malformed id in the URL. */
export function notFound(message = '内容不存在'): never {
  throw data<Missing>({ missing: message }, { status: 404 })
}

/**
 * What a route's id names, read by `read`: a malformed id or an unknown item is a 404 (`missing` says what is
 * missing).
 */
export async function readById<T>(
  rawId: string | null | undefined,
  missing: string,
  read: (id: number) => Promise<T>,
): Promise<T> {
  const id = parseId(rawId)
  if (id === null) notFound(missing)
  return orNotFound(() => read(id))
}

/** One course as a course-type screen's loader reads it (`courseOfTypeOrList`). */
export type CourseOfType = Extract<Awaited<ReturnType<typeof courseOfTypeOrList>>, { kind: 'course' }>['course']

/**
 * The loader of a screen for one course type (/li, /course/systemCourse, /course/systemGroup): without an id, the
 * first page of the courses of that type; with one, that course, or a redirect to its own page (keeping
 * `search`) when it is of another type; a malformed or unknown id is a 404 (`missing` says what is missing).
 */
export async function courseOfTypeOrList(
  catalogue: Services['catalogue'],
  type: CourseType,
  rawId: string | null | undefined,
  options: { missing: string; search?: string },
) {
  if (!rawId) {
    const list = await catalogue.courseList({ cate_id: undefined, type, sort: 'default', limit: 20 })
    return { kind: 'list' as const, list }
  }
  const course = await readById(rawId, options.missing, (id) => catalogue.courseDetail(id))
  if (course.type !== type) throw redirect(`${courseHref(course.id)}${options.search ?? ''}`)
  return { kind: 'course' as const, course }
}

/** The loader of /course/systemCourse and /course/systemGroup: the system course `?id=` names, or their list. */
export function systemCourseOrList({
  context,
  request,
}: {
  context: Readonly<RouterContextProvider>
  request: Request
}) {
  const id = new URL(request.url).searchParams.get('id')
  return courseOfTypeOrList(services(context).catalogue, 'system', id, { missing: '体系课不存在' })
}
