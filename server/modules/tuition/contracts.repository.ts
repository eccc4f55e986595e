import { desc, eq } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { rowsBy, updateWhileNull } from '#server/db/rows.ts'
import { contracts } from '#server/db/schema/tuition.ts'

export type ContractRow = typeof contracts.$inferSelect

export const { find: findContract, lock: lockContract } = rowsBy(contracts, contracts.id)

export async function insertContract(db: DbOrTx, row: typeof contracts.$inferInsert) {
  const [created] = await db.insert(contracts).values(row).returning()
  return created!
}

export async function contractOfEnrolment(db: DbOrTx, enrolmentId: number) {
  const [row] = await db.select().from(contracts).where(eq(contracts.enrolmentId, enrolmentId))
  return row ?? null
}

export function memberContracts(db: DbOrTx, memberId: number) {
  return db.select().from(contracts).where(eq(contracts.memberId, memberId)).orderBy(desc(contracts.id))
}

export type SignedFields = Required<
  Pick<
    ContractRow,
    | 'filledText'
    | 'realName'
    | 'idType'
    | 'idNumber'
    | 'phone'
    | 'signatureKey'
    | 'signedAt'
    | 'clientIp'
    | 'userAgent'
    | 'sha256'
    | 'pdfKey'
    | 'refundRule'
  >
>

/** Freezes a contract: only one that is not signed yet (null otherwise); a trigger refuses any later change. */
export function signContract(db: DbOrTx, id: number, fields: SignedFields) {
  return updateWhileNull(db, contracts, id, contracts.signedAt, fields)
}
