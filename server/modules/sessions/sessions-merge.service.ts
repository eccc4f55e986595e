import type { DbOrTx } from '#server/db/database.ts'
import { sessionsChanged } from './session-cache.ts'
import { revokeMemberSessions } from './sessions-merge.repository.ts'

/** Bind phone's merge: every token of the absorbed member stops working at once. */
export async function endMemberSessions(tx: DbOrTx, memberId: number, at: Date) {
  const revoked = await revokeMemberSessions(tx, memberId, at)
  sessionsChanged(revoked)
  return { sessions: revoked.length }
}
