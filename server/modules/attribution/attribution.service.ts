import type { Db } from '#server/db/database.ts'
import { copyVisitorTouchToMember, insertFirstTouch } from './attribution.repository.ts'

/**
 * First touches of promotion sources (spec section 3), for the request-context plugin (server/http), which records
 * them after each response.
 */
export function createAttributionService(deps: { db: Db }) {
  return {
    /** Records a first touch for the visitor and/or member; a later touch by either changes nothing. */
    recordTouch: (touch: { visitorId?: string; memberId?: number; sp: string; url?: string }) =>
      insertFirstTouch(deps.db, touch),
    /** Credits a member who just signed in with the first touch of the browser they signed in from. */
    copyVisitorTouch: (visitorId: string, memberId: number) => copyVisitorTouchToMember(deps.db, visitorId, memberId),
  }
}
