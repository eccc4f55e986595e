import type { DbOrTx } from '#server/db/database.ts'
import { moveLearningRows } from './learning-merge.repository.ts'

/** Bind phone's merge (server/use-cases/merge-members.ts): progress (the furthest kept) and notes move to `to`. */
export function moveMemberLearning(tx: DbOrTx, from: number, to: number) {
  return moveLearningRows(tx, from, to)
}
