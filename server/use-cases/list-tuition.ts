import { courseTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import { memberTuition } from '#server/modules/tuition/enrolments.service.ts'
import type { TuitionDeps } from './offer-enrolment.ts'

/** /order3 and /PayAmount: the member's enrolments, each with its course title and payment schedule. */
export async function listTuition(deps: TuitionDeps, memberId: number) {
  const list = await memberTuition(deps.db, memberId, deps.now())
  const titles = await courseTitlesByIds(
    deps.db,
    list.map((e) => e.course_id),
  )
  return { list: list.map((e) => ({ ...e, course_title: titles.get(e.course_id)?.title ?? '' })) }
}
