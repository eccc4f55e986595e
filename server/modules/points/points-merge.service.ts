import type { DbOrTx } from '#server/db/database.ts'
import { creditPoints, debitPoints, lockBalance } from './points.repository.ts'

/**
 * Bind phone's merge (server/use-cases/merge-members.ts): the balance of `from` moves to `to` as two new ledger
 * entries (`member_merged`: out of `from`, into `to`), never by editing either ledger. Both balances are locked
 * first, lower id first, so two merges touching the same members cannot deadlock or double-count.
 */
export async function moveMemberPoints(tx: DbOrTx, from: number, to: number, at: Date) {
  for (const id of [from, to].sort((a, b) => a - b)) await lockBalance(tx, id, at)
  const balance = await lockBalance(tx, from, at)
  if (balance <= 0) return { points: 0 }
  const change = { reason: 'member_merged' as const, actor: 'system', at }
  const left = await debitPoints(tx, { ...change, memberId: from, points: balance, note: `并入学员 ${to}` })
  if (left === null) throw new Error('points balance changed under its lock')
  await creditPoints(tx, { ...change, memberId: to, points: balance, note: `学员 ${from} 并入` })
  return { points: balance }
}
