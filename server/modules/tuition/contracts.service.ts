import crypto from 'node:crypto'
import type { DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { ContractPdfInput } from './contract-pdf.ts'
import { fillContract, type ContractFacts } from './contract-text.ts'
import {
  findContract,
  lockContract,
  memberContracts,
  signContract,
  type ContractRow,
  type SignedFields,
} from './contracts.repository.ts'
import { findEnrolment, scheduleOf } from './enrolments.repository.ts'
import { findPlan, findVersion } from './programme.repository.ts'

// Contracts (issue 15 §2): read before signing, frozen at signing with a SHA-256 of the PDF, verified on demand.

export type { ContractRow }

const sha256Hex = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex')

/**
 * Draws a signed contract's PDF. contract-pdf.ts is loaded on the first signature, not at start: pdf-lib, fontkit
 * and HarfBuzz's WebAssembly would otherwise stay in the heap of every process, most of which never draw a
 * contract, and every full collection would walk them (8.7 MB of heap and 26 MB of memory after start, measured).
 */
async function renderContractPdf(input: ContractPdfInput) {
  return (await import('./contract-pdf.ts')).renderContractPdf(input)
}

/** The member's own contract (NotFound for anyone else's: another member learns nothing, not even that it exists). */
export async function ownContract(db: DbOrTx, memberId: number, id: number) {
  const row = await findContract(db, id)
  if (!row || row.memberId !== memberId) throw new AppError(Codes.NotFound, '合同不存在')
  return row
}

/** What filling a contract needs from this module: the template version, the plan and the schedule. */
export async function contractTerms(db: DbOrTx, contract: ContractRow) {
  const [version, enrolment] = await Promise.all([
    findVersion(db, contract.templateVersionId),
    findEnrolment(db, contract.enrolmentId),
  ])
  const [plan, schedule] = await Promise.all([findPlan(db, enrolment!.planId), scheduleOf(db, [enrolment!.id])])
  return { version: version!, enrolment: enrolment!, plan: plan!, schedule }
}

type Terms = Awaited<ReturnType<typeof contractTerms>>

/** The facts of the plan a contract states (the learner's own come from the caller). */
export function planFacts(t: Terms, course: string) {
  return {
    course,
    plan: t.plan.title,
    totalFen: t.plan.totalFen,
    schedule: t.schedule.map((p) => ({ label: p.label, amountFen: p.amountFen, dueAt: p.dueAt })),
    studyDays: t.plan.studyDays,
    maxPauseDays: t.plan.maxPauseDays,
    exitFeeFen: t.plan.exitFeeFen,
  }
}

/** A contract as the member's screens show it: the frozen text once signed, else the text filled with `facts`. */
export function toContractView(c: ContractRow, t: Terms, facts: ContractFacts) {
  return {
    id: c.id,
    enrolment_id: c.enrolmentId,
    title: t.version.title,
    text: c.filledText ?? fillContract(t.version.body, facts),
    asks_id: t.version.asksId,
    signed: c.signedAt !== null,
    signed_at: c.signedAt?.toISOString() ?? null,
    real_name: c.realName,
    sha256: c.sha256,
    total_fen: t.plan.totalFen,
    contract_required: t.plan.contractRequired,
  }
}

export function contractList(db: DbOrTx, memberId: number) {
  return memberContracts(db, memberId)
}

/** The PDF of a signed contract, frozen: the filled text, the signature, and the signing record. */
export async function freezeContract(
  tx: DbOrTx,
  c: { id: number; memberId: number },
  signer: {
    facts: ContractFacts
    signaturePng: Buffer
    ip: string
    userAgent: string
    at: Date
    keys: { signature: string; pdf: string }
  },
) {
  const locked = await lockContract(tx, c.id)
  if (!locked || locked.memberId !== c.memberId) throw new AppError(Codes.NotFound, '合同不存在')
  if (locked.signedAt) throw new AppError(Codes.ContractSigned)
  const terms = await contractTerms(tx, locked)
  if (terms.version.asksId && !(signer.facts.idType && signer.facts.idNumber))
    throw new AppError(Codes.BadRequest, '请填写证件类型和证件号码', { field: 'id_number' })
  const text = fillContract(terms.version.body, signer.facts)
  const record = [
    `签署人：${signer.facts.realName}    手机号：${signer.facts.phone}`,
    `签署时间：${signer.at.toISOString()}    IP：${signer.ip}`,
    `合同编号：${locked.id}    模板版本：${terms.version.id}`,
    `User-Agent：${signer.userAgent.slice(0, 200)}`,
  ]
  const pdf = await renderContractPdf({
    title: terms.version.title,
    text,
    signaturePng: signer.signaturePng,
    record,
    signedAt: signer.at,
  })
  const fields: SignedFields = {
    filledText: text,
    realName: signer.facts.realName,
    idType: signer.facts.idType || null,
    idNumber: signer.facts.idNumber || null,
    phone: signer.facts.phone,
    signatureKey: signer.keys.signature,
    signedAt: signer.at,
    clientIp: signer.ip,
    userAgent: signer.userAgent.slice(0, 500),
    sha256: sha256Hex(pdf),
    pdfKey: signer.keys.pdf,
    refundRule: { exit_fee_fen: terms.plan.exitFeeFen, study_days: terms.plan.studyDays },
  }
  const signed = await signContract(tx, locked.id, fields)
  if (!signed) throw new AppError(Codes.ContractSigned)
  return { contract: signed, pdf, enrolment: terms.enrolment }
}

/** Staff's check of a stored PDF against the hash frozen at signing. */
export function verifyPdf(c: ContractRow, bytes: Uint8Array | null) {
  if (!c.signedAt || !c.sha256) throw new AppError(Codes.BadRequest, '合同尚未签署')
  const actual = bytes ? sha256Hex(bytes) : null
  return { id: c.id, expected: c.sha256, actual, valid: actual === c.sha256 }
}

/** A contract by id for staff (NotFound). */
export async function contractById(db: DbOrTx, id: number) {
  const row = await findContract(db, id)
  if (!row) throw new AppError(Codes.NotFound, `合同 ${id} 不存在`)
  return row
}
