import type { MediaStores } from '#server/integrations/storage/storage.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { contractById, ownContract, verifyPdf, type ContractRow } from '#server/modules/tuition/contracts.service.ts'
import type { TuitionDeps } from './offer-enrolment.ts'

export interface PdfDeps extends TuitionDeps {
  stores: Pick<MediaStores, 'private'>
}

async function storedPdf(deps: PdfDeps, c: ContractRow): Promise<Buffer | null> {
  if (!c.pdfKey) return null
  const stream = await deps.stores.private.get(c.pdfKey)
  if (!stream) return null
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

async function signedPdf(deps: PdfDeps, contract: ContractRow) {
  if (!contract.signedAt) throw new AppError(Codes.BadRequest, '合同尚未签署')
  const pdf = await storedPdf(deps, contract)
  if (!pdf) throw new AppError(Codes.NotFound, '合同文件不存在')
  return pdf
}

/** GET /contract/see: the member's signed contract as stored (the private store; never a public URL). */
export async function readContractPdf(deps: PdfDeps, memberId: number, id: number) {
  return signedPdf(deps, await ownContract(deps.db, memberId, id))
}

/** Staff: a signed contract's PDF as stored (the console's enrolment page). */
export async function readContractPdfForStaff(deps: PdfDeps, id: number) {
  return signedPdf(deps, await contractById(deps.db, id))
}

/** Staff: does the stored PDF still hash to what was frozen at signing? (One call; a changed byte fails.) */
export async function verifyContractPdf(deps: PdfDeps, id: number) {
  const contract = await contractById(deps.db, id)
  return verifyPdf(contract, await storedPdf(deps, contract))
}
