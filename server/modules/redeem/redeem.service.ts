import type { DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { RedeemBatchCreate } from '#shared/api/redeem.ts'
import { beijingMinute } from '#shared/time.ts'
import { codeHasher, newCode, parseCode } from './code-format.ts'
import { hitGuesses, sweepGuesses, undoGuesses } from './guesses.repository.ts'
import {
  insertBatch,
  insertCodes,
  insertUse,
  findCodeById,
  findCodeIdByHash,
  lockMemberInBatch,
  memberUsesInBatch,
  memberUses,
  findUsesByIds,
  revokeCodeAndUses,
  type BatchRow,
} from './redeem.repository.ts'

export { groupCode } from './code-format.ts'
export type { BatchRow } from './redeem.repository.ts'

const HOUR_MS = 3_600_000

export interface RedeemSettings {
  /** HMAC key of stored codes (REDEEM_CODE_SECRET). */
  codeSecret: string
  /** Wrong codes a member, and a client address, may try in an hour (REDEEM_WRONG_PER_HOUR). */
  wrongPerHour: number
}

/** Who tries a code: the member and the client address, each with its own guessing limit. */
export interface Attempt {
  memberId: number
  ip: string
}

/**
 * The redeem module's door for the exchange workflows (server/use-cases/*-redeem-*.ts): reading a typed code under
 * the guessing limit, the code's own rules, recording a use, revoking, the member's record.
 */
export function createRedeemCodes(settings: RedeemSettings) {
  const hash = codeHasher(settings.codeSecret)
  let calls = 0

  /**
   * The code someone typed, as a stored code (its id), under the guessing limit. Every attempt first reserves a
   * slot of the member's and the address's allowance (so parallel guesses cannot slip past the limit); an attempt
   * that finds a real code, or is refused with 429, gives its slot back, so only wrong codes (a typo or an unknown
   * code) use the allowance. Attempts in flight hold a slot for their few milliseconds: more than the allowance at
   * the same instant from one address would see 429 too. Runs outside any transaction, so a counted guess stays
   * counted when the request fails. 429 names the wait.
   */
  async function admit(db: DbOrTx, who: Attempt, input: string) {
    const parsed = parseCode(input)
    if (!parsed.ok && parsed.reason === 'shape')
      throw new AppError(Codes.BadRequest, '兑换码应为 12 位字母和数字，如 7KQ4-MX2D-9HTR', { field: 'data' })
    if (++calls % 500 === 0) void sweepGuesses(db).catch(() => undefined)
    const keys = [`m:${who.memberId}`, `ip:${who.ip}`]
    const hits = await hitGuesses(db, keys, HOUR_MS)
    const over = hits.filter((h) => h.hits > settings.wrongPerHour)
    if (over.length) {
      // Refused unseen: the attempt was not evaluated, so it does not count either.
      await undoGuesses(db, keys)
      const seconds = Math.max(1, Math.ceil(Math.max(...over.map((h) => h.ttlMs)) / 1000))
      const minutes = Math.ceil(seconds / 60)
      throw new AppError(
        Codes.TooManyRequests,
        `兑换码输错次数太多，请 ${minutes} 分钟后再试`,
        { retry_after_seconds: seconds },
        { retryAfterSeconds: seconds },
      )
    }
    if (!parsed.ok) throw new AppError(Codes.RedeemCodeTypo)
    const codeId = await findCodeIdByHash(db, hash(parsed.code))
    if (codeId === null) throw new AppError(Codes.RedeemCodeUnknown)
    await undoGuesses(db, keys)
    return { codeId, code: parsed.code }
  }

  return {
    admit,
    /** The code's row and batch, locked for the rest of the transaction (two exchanges of one code queue here). */
    lock: async (tx: DbOrTx, codeId: number) => (await findCodeById(tx, codeId, true))!,
    /** The same for an id an operator sent (null when there is no such code). */
    lockIfAny: (tx: DbOrTx, codeId: number) => findCodeById(tx, codeId, true),
    /** Without a lock (the preview). */
    read: async (db: DbOrTx, codeId: number) => (await findCodeById(db, codeId, false))!,
    /**
     * The code's own rules for this member now; throws the refusal that applies first. `serialise` (inside the
     * exchange's transaction) first queues the member's other exchanges of the same batch.
     */
    check: async (db: DbOrTx, row: LockedCode, memberId: number, now: Date, opts: { serialise: boolean }) => {
      const { batch, code } = row
      if (opts.serialise) await lockMemberInBatch(db, batch.id, memberId)
      if (code.revokedAt) throw new AppError(Codes.RedeemCodeRevoked)
      if (batch.disabledAt) throw new AppError(Codes.RedeemBatchDisabled, '这批兑换码已停用，请联系发放兑换码的一方')
      if (now < batch.validFrom)
        throw new AppError(
          Codes.RedeemCodeNotYetValid,
          `兑换码还未到可用时间，${beijingMinute(batch.validFrom)} 起可用`,
        )
      if (now >= batch.validUntil)
        throw new AppError(Codes.RedeemCodeExpired, `兑换码已过期（有效期至 ${beijingMinute(batch.validUntil)}）`)
      const mine = await memberUsesInBatch(db, batch.id, memberId, code.id)
      if (mine.thisCode > 0) throw new AppError(Codes.RedeemCodeUsed, '你已经用过这个兑换码了')
      if (code.uses >= batch.usesPerCode) throw new AppError(Codes.RedeemCodeUsed, '这个兑换码已被使用')
      if (mine.uses >= batch.perMemberLimit)
        throw new AppError(Codes.RedeemLimitReached, `这批兑换码每人最多使用 ${batch.perMemberLimit} 个，你已达到上限`)
    },
    /** Records the member's use (and counts it on the code); its grants carry `redeemSourceRef(use.id)`. */
    recordUse: (
      tx: DbOrTx,
      use: {
        codeId: number
        batchId: number
        memberId: number
        courseIds: number[]
        vipDays: number | null
        now: Date
      },
    ) => insertUse(tx, { ...use, usedAt: use.now }),
    /** Revokes the code and its uses that still count; returns those uses (their grants are to be taken back). */
    revoke: (tx: DbOrTx, codeId: number, staffId: number, now: Date) => revokeCodeAndUses(tx, codeId, staffId, now),
    /** The member's uses, newest first (the /order4 record). */
    memberUses,
    /** Fresh codes and their hashes for a batch (the plain codes leave the server once, in the creation's CSV). */
    mint: (n: number) =>
      Array.from({ length: n }, () => {
        const code = newCode()
        return { code, hash: hash(code) }
      }),
    /** The hash of a typed code, or null when it is not a well-formed code (the console's code search). */
    hashOf: (input: string) => {
      const parsed = parseCode(input)
      return parsed.ok ? hash(parsed.code) : null
    },
    insertBatch: (tx: DbOrTx, staffId: number, b: RedeemBatchCreate, now: Date) =>
      insertBatch(tx, {
        name: b.name,
        courseIds: b.course_ids,
        vipDays: b.vip_days,
        codeCount: b.count,
        usesPerCode: b.uses_per_code,
        perMemberLimit: b.per_member_limit,
        validFrom: new Date(b.valid_from),
        validUntil: new Date(b.valid_until),
        note: b.note,
        createdBy: staffId,
        createdAt: now,
      }),
    insertCodes,
  }
}

export type RedeemCodes = ReturnType<typeof createRedeemCodes>
export type LockedCode = NonNullable<Awaited<ReturnType<typeof findCodeById>>>

/** The `source_ref` of the entitlements a use granted (entitlements.source 'redeem'). */
export const redeemSourceRef = (useId: number) => `redeem:${useId}`

/** The uses behind these entitlements' `source_ref`s (`redeem:<id>`), by source_ref: when and from which batch. */
export async function redeemUsesByRefs(db: DbOrTx, refs: string[]) {
  const ids = refs.flatMap((r) => (/^redeem:(\d{1,10})$/.exec(r) ? [Number(r.slice(7))] : []))
  const rows = await findUsesByIds(db, ids)
  return new Map(rows.map((r) => [redeemSourceRef(r.use.id), { batchName: r.batchName, revokedAt: r.use.revokedAt }]))
}

/** A batch as the console and the record name what it grants. */
export function batchGrantText(batch: Pick<BatchRow, 'courseIds' | 'vipDays'>) {
  return batch.vipDays !== null ? `VIP ${batch.vipDays} 天` : `${batch.courseIds.length} 门课程`
}
