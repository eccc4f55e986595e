import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { courseTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import type { RedeemBatchCreate } from '#shared/api/redeem.ts'
import type { RedeemDeps } from './redeem-deps.ts'

/**
 * An operator creates a batch (POST /api/admin/redeem/batches): its courses must exist; its codes are minted
 * here, stored as keyed hashes in one transaction with the batch (many rows per statement: 100,000 codes take a
 * few seconds), and handed back once, in serial order, for the CSV answer. A code whose hash is already stored
 * (vanishingly rare) is replaced by a fresh one under the same serial.
 */
export async function createRedeemBatch(deps: RedeemDeps, staffId: number, body: RedeemBatchCreate) {
  if (body.course_ids.length) {
    const titles = await courseTitlesByIds(deps.db, body.course_ids)
    const missing = body.course_ids.filter((id) => !titles.has(id))
    if (missing.length) throw new AppError(Codes.NotFound, `课程 ${missing.join('、')} 不存在`, { field: 'course_ids' })
  }
  const now = deps.now()
  return deps.db.transaction(async (tx) => {
    const batch = await deps.codes.insertBatch(tx, staffId, body, now)
    const codes: string[] = new Array<string>(body.count)
    let serials = Array.from({ length: body.count }, (_, i) => i + 1)
    while (serials.length) {
      const minted = deps.codes.mint(serials.length).map((m, i) => ({ ...m, serial: serials[i]! }))
      const stored = new Set(await deps.codes.insertCodes(tx, batch.id, minted))
      for (const m of minted) if (stored.has(m.serial)) codes[m.serial - 1] = m.code
      serials = serials.filter((s) => !stored.has(s))
    }
    return { batch, codes }
  })
}
