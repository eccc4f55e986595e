import type { DbOrTx } from '#server/db/database.ts'
import { revokeMemberSessions } from './sessions-merge.repository.ts'

/** Bind phone's merge: every token of the absorbed member stops working at once. */
export async function endMemberSessions(tx: DbOrTx, memberId: number, at: Date) {
  return { sessions: await revokeMemberSessions(tx, memberId, at) }
}
