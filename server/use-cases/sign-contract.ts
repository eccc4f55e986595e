import type { MediaStores } from '#server/integrations/storage/storage.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { AuthService } from '#server/modules/auth/auth.service.ts'
import { courseTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import { memberPhones } from '#server/modules/members/members.service.ts'
import {
  contractTerms,
  freezeContract,
  ownContract,
  planFacts,
  toContractView,
} from '#server/modules/tuition/contracts.service.ts'
import { markSigned } from '#server/modules/tuition/enrolments.service.ts'
import type { AgreeInput } from '#shared/api/tuition.ts'
import type { TuitionDeps } from './offer-enrolment.ts'

export interface ContractDeps extends TuitionDeps {
  auth: Pick<AuthService, 'verifyContractCode'>
  stores: Pick<MediaStores, 'private'>
}

/** The facts a contract is filled with, before the learner types their name: course, plan, schedule, phone. */
async function factsFor(deps: TuitionDeps, memberId: number, terms: Awaited<ReturnType<typeof contractTerms>>) {
  const [titles, phones] = await Promise.all([
    courseTitlesByIds(deps.db, [terms.enrolment.courseId]),
    memberPhones(deps.db, [memberId]),
  ])
  return {
    ...planFacts(terms, titles.get(terms.enrolment.courseId)?.title ?? ''),
    phone: phones.get(memberId) ?? '',
  }
}

/** GET /contract/{id}: the member's contract, filled (the frozen text once signed). */
export async function readContract(deps: TuitionDeps, memberId: number, id: number) {
  const contract = await ownContract(deps.db, memberId, id)
  const terms = await contractTerms(deps.db, contract)
  const facts = await factsFor(deps, memberId, terms)
  return toContractView(contract, terms, { ...facts, realName: '', idType: '', idNumber: '', date: deps.now() })
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/**
 * POST /contract/agree (issue 15 §2): a fresh SMS code to the member's own phone (purpose `contract`), the typed
 * real name, explicit agreement and a hand-drawn signature (PNG). In one transaction: the code checked (a wrong
 * try is recorded), the contract locked and still unsigned, the filled text frozen with the signature, time,
 * address, user agent and phone, and the PDF's SHA-256; the enrolment moves offered → signed. The signature and
 * the PDF are written to the private store before the commit under keys unique to the contract, so a committed
 * contract always has its files (a rolled-back one leaves files nobody points at).
 */
export async function signContractByMember(
  deps: ContractDeps,
  memberId: number,
  input: AgreeInput,
  client: { ip: string; userAgent: string },
) {
  const png = Buffer.from(input.signature.slice(input.signature.indexOf(',') + 1), 'base64')
  if (png.length < 100 || !png.subarray(0, 8).equals(PNG_MAGIC))
    throw new AppError(Codes.BadRequest, '请在签名区手写签名', { field: 'signature' })
  const contract = await ownContract(deps.db, memberId, input.id)
  if (contract.signedAt) throw new AppError(Codes.ContractSigned)
  const facts = await factsFor(deps, memberId, await contractTerms(deps.db, contract))
  const at = deps.now()
  const outcome = await deps.db.transaction(async (tx) => {
    const verified = await deps.auth.verifyContractCode(tx, memberId, input.code, at)
    if (!verified.ok) return verified
    const stamp = at.getTime().toString(36)
    const keys = {
      signature: `contracts/${contract.id}/signature-${stamp}.png`,
      pdf: `contracts/${contract.id}/contract-${stamp}.pdf`,
    }
    const signed = await freezeContract(tx, contract, {
      facts: {
        ...facts,
        phone: verified.phone,
        realName: input.real_name,
        idType: input.id_type ?? '',
        idNumber: input.id_number ?? '',
        date: at,
      },
      signaturePng: png,
      ip: client.ip,
      userAgent: client.userAgent,
      at,
      keys,
    })
    await deps.stores.private.put(keys.signature, png, { contentType: 'image/png' })
    await deps.stores.private.put(keys.pdf, Buffer.from(signed.pdf), { contentType: 'application/pdf' })
    await markSigned(tx, signed.enrolment.id, `member:${memberId}`, at, {
      contract_id: contract.id,
      sha256: signed.contract.sha256,
    })
    return { ok: true as const, contract: signed.contract }
  })
  if (!outcome.ok) throw outcome.error
  return {
    id: outcome.contract.id,
    enrolment_id: outcome.contract.enrolmentId,
    signed_at: outcome.contract.signedAt!.toISOString(),
    sha256: outcome.contract.sha256!,
  }
}
