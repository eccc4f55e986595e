import { and, count, eq, gt, lt, min, sql } from 'drizzle-orm'
import type { DbOrTx, Tx } from '#server/db/database.ts'
import { deleteBatch, insertIfAbsent, stampOnce } from '#server/db/rows.ts'
import { oauthCodesUsed, oauthStates } from '#server/db/schema/wechat.ts'

export async function insertOauthState(
  db: DbOrTx,
  row: {
    stateHash: string
    browserHash: string
    scope: 'snsapi_base' | 'snsapi_userinfo'
    returnPath: string
    ip: string
    createdAt: Date
    expiresAt: Date
  },
) {
  await db.insert(oauthStates).values(row)
}

/**
 * Serialises the OAuth starts of one client address for the rest of the transaction (across processes), so
 * concurrent starts cannot both pass the limit.
 */
export async function lockOauthStarts(tx: Tx, ip: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`wechat-oauth:ip:${ip}`}, 0))`)
}

/** OAuth flows one address started after `since`, and the oldest of them. */
export async function oauthStartStats(db: DbOrTx, ip: string, since: Date) {
  const [row] = await db
    .select({ total: count(), oldest: min(oauthStates.createdAt) })
    .from(oauthStates)
    .where(and(eq(oauthStates.ip, ip), gt(oauthStates.createdAt, since)))
  return row!
}

/**
 * Uses a state up in one conditional update, so two requests racing with the same state cannot both pass: only a
 * live, unused state started by this browser matches.
 */
export async function consumeOauthState(db: DbOrTx, where: { stateHash: string; browserHash: string; now: Date }) {
  const live = and(
    eq(oauthStates.stateHash, where.stateHash),
    eq(oauthStates.browserHash, where.browserHash),
    gt(oauthStates.expiresAt, where.now),
  )
  const [row] = await stampOnce(db, oauthStates, 'usedAt', where.now, live).returning({
    scope: oauthStates.scope,
    returnPath: oauthStates.returnPath,
  })
  return row
}

/** Records an OAuth code as used; false when it already was (the primary key decides between racing requests). */
export async function claimOauthCode(db: DbOrTx, codeHash: string, now: Date) {
  return insertIfAbsent(db, oauthCodesUsed, { codeHash, usedAt: now })
}

export async function setOauthCodeMember(db: DbOrTx, codeHash: string, memberId: number) {
  await db.update(oauthCodesUsed).set({ memberId }).where(eq(oauthCodesUsed.codeHash, codeHash))
}

/** Deletes up to `limit` states that expired before `before` (used or not); how many. Skips rows others hold. */
export async function deleteExpiredOauthStates(db: DbOrTx, before: Date, limit: number) {
  return deleteBatch(db, oauthStates.id, lt(oauthStates.expiresAt, before), limit)
}

/** Deletes up to `limit` used-code records from before `before`; how many. Skips rows others hold. */
export async function deleteOldOauthCodes(db: DbOrTx, before: Date, limit: number) {
  return deleteBatch(db, oauthCodesUsed.codeHash, lt(oauthCodesUsed.usedAt, before), limit)
}

/** Serialises sign-ins of one WeChat user for the rest of the transaction, so two tabs cannot create two members. */
export async function lockWechatIdentity(tx: Tx, openid: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`wechat:${openid}`}, 0))`)
}
