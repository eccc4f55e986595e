import type { DbOrTx } from '#server/db/database.ts'
import { findConsultContact } from './facts.repository.ts'

/**
 * A system course's own consultation contact (issue 15, GET /course/contact): its WeCom QR image and link, each
 * null when the course has none (the site's default applies then), or null for a course that is not published.
 */
export function courseConsultContact(db: DbOrTx, courseId: number) {
  return findConsultContact(db, courseId)
}
