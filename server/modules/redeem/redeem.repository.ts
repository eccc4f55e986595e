import { and, asc, count, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { containsText } from '#server/db/list.ts'
import { timeKeyset, type TimeCursor } from '#server/db/rows.ts'
import { redeemBatches, redeemCodes, redeemUses } from '#server/db/schema/redeem.ts'
import type { Sort } from '#server/http/admin-list.ts'

export type BatchRow = typeof redeemBatches.$inferSelect
export type NewBatch = typeof redeemBatches.$inferInsert

/** How many code rows one INSERT carries (two array parameters; 20,000 keeps a statement near 1 MB). */
const INSERT_CHUNK = 20_000

export async function insertBatch(db: DbOrTx, batch: NewBatch) {
  const [row] = await db.insert(redeemBatches).values(batch).returning()
  return row!
}

/**
 * Stores code hashes with their serial numbers, many rows per statement (unnest of two arrays). A hash that is
 * already stored (a repeated code, about one in 10⁷ batches of 100,000) is skipped; returns the serials stored.
 */
export async function insertCodes(db: DbOrTx, batchId: number, codes: { serial: number; hash: string }[]) {
  const stored: number[] = []
  for (let i = 0; i < codes.length; i += INSERT_CHUNK) {
    const part = codes.slice(i, i + INSERT_CHUNK)
    const { rows } = await db.execute<{ serial: number }>(sql`
      insert into ${redeemCodes} (batch_id, serial, code_hash)
      select ${batchId}::int, s, h
      from unnest(${`{${part.map((c) => c.serial).join(',')}}`}::int[], ${`{${part.map((c) => c.hash).join(',')}}`}::text[]) as t(s, h)
      on conflict (code_hash) do nothing
      returning serial`)
    for (const r of rows) stored.push(Number(r.serial))
  }
  return stored
}

const codeWithBatch = {
  code: {
    id: redeemCodes.id,
    serial: redeemCodes.serial,
    uses: redeemCodes.uses,
    revokedAt: redeemCodes.revokedAt,
  },
  batch: redeemBatches,
}

/** A code's id by its hash. */
export async function findCodeIdByHash(db: DbOrTx, hash: string) {
  const [row] = await db.select({ id: redeemCodes.id }).from(redeemCodes).where(eq(redeemCodes.codeHash, hash))
  return row?.id ?? null
}

/** A code and its batch by id; `lock` takes the code's row lock until the transaction ends. */
export async function findCodeById(tx: DbOrTx, codeId: number, lock: boolean) {
  const q = tx
    .select(codeWithBatch)
    .from(redeemCodes)
    .innerJoin(redeemBatches, eq(redeemBatches.id, redeemCodes.batchId))
    .where(eq(redeemCodes.id, codeId))
  const [row] = lock ? await q.for('update', { of: redeemCodes }) : await q
  return row ?? null
}

/**
 * Queues the member's exchanges within one batch until the transaction ends (a transaction-level advisory lock on
 * the pair), so two codes of one batch used at once cannot both pass the per-member limit.
 */
export async function lockMemberInBatch(tx: DbOrTx, batchId: number, memberId: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(${batchId}::int, ${memberId}::int)`)
}

/** The member's uses of codes of this batch that still count, and whether one of them is of this code. */
export async function memberUsesInBatch(db: DbOrTx, batchId: number, memberId: number, codeId: number) {
  const [row] = await db
    .select({
      uses: count(),
      thisCode: sql<number>`count(*) filter (where ${redeemUses.codeId} = ${codeId})`.mapWith(Number),
    })
    .from(redeemUses)
    .where(and(eq(redeemUses.batchId, batchId), eq(redeemUses.memberId, memberId), isNull(redeemUses.revokedAt)))
  return { uses: row?.uses ?? 0, thisCode: row?.thisCode ?? 0 }
}

export async function insertUse(tx: DbOrTx, use: typeof redeemUses.$inferInsert) {
  const [row] = await tx.insert(redeemUses).values(use).returning()
  await tx
    .update(redeemCodes)
    .set({ uses: sql`${redeemCodes.uses} + 1` })
    .where(eq(redeemCodes.id, use.codeId))
  return row!
}

/** Revokes the code and every use of it that still counts; returns those uses. */
export async function revokeCodeAndUses(tx: DbOrTx, codeId: number, staffId: number, now: Date) {
  await tx
    .update(redeemCodes)
    .set({ revokedAt: now })
    .where(and(eq(redeemCodes.id, codeId), isNull(redeemCodes.revokedAt)))
  return tx
    .update(redeemUses)
    .set({ revokedAt: now, revokedBy: staffId })
    .where(and(eq(redeemUses.codeId, codeId), isNull(redeemUses.revokedAt)))
    .returning()
}

export async function findBatch(db: DbOrTx, id: number) {
  const [row] = await db.select().from(redeemBatches).where(eq(redeemBatches.id, id))
  return row ?? null
}

export async function disableBatch(db: DbOrTx, id: number, now: Date) {
  await db
    .update(redeemBatches)
    .set({ disabledAt: now })
    .where(and(eq(redeemBatches.id, id), isNull(redeemBatches.disabledAt)))
  return findBatch(db, id)
}

// ---- The console's lists --------------------------------------------------------------------------------------

export interface BatchFilter {
  q?: string
  state?: 'active' | 'disabled'
}

const batchWhere = (f: BatchFilter): SQL | undefined =>
  and(
    f.q ? or(containsText(redeemBatches.name, f.q), containsText(redeemBatches.note, f.q)) : undefined,
    f.state === 'active' ? isNull(redeemBatches.disabledAt) : undefined,
    f.state === 'disabled' ? isNotNull(redeemBatches.disabledAt) : undefined,
  )

const batchSorts = { created_at: redeemBatches.createdAt, valid_until: redeemBatches.validUntil, id: redeemBatches.id }

/** Batches with how many of their codes were used (codes with at least one use) and revoked. */
export async function listBatches(
  db: DbOrTx,
  f: BatchFilter,
  sort: Sort<keyof typeof batchSorts>,
  w: { offset: number; limit: number },
) {
  const column = batchSorts[sort.key]
  return db
    .select({
      batch: redeemBatches,
      usedCodes:
        sql<number>`(select count(*) from ${redeemCodes} c where c.batch_id = ${redeemBatches.id} and c.uses > 0)`.mapWith(
          Number,
        ),
      revokedCodes:
        sql<number>`(select count(*) from ${redeemCodes} c where c.batch_id = ${redeemBatches.id} and c.revoked_at is not null)`.mapWith(
          Number,
        ),
    })
    .from(redeemBatches)
    .where(batchWhere(f))
    .orderBy(sort.desc ? desc(column) : asc(column), desc(redeemBatches.id))
    .offset(w.offset)
    .limit(w.limit)
}

/** How many codes of a batch were used and revoked. */
export async function batchUsage(db: DbOrTx, batchId: number) {
  const [row] = await db
    .select({
      used: sql<number>`count(*) filter (where ${redeemCodes.uses} > 0)`.mapWith(Number),
      revoked: sql<number>`count(*) filter (where ${redeemCodes.revokedAt} is not null)`.mapWith(Number),
    })
    .from(redeemCodes)
    .where(eq(redeemCodes.batchId, batchId))
  return { used: row?.used ?? 0, revoked: row?.revoked ?? 0 }
}

export async function countBatches(db: DbOrTx, f: BatchFilter) {
  const [row] = await db.select({ n: count() }).from(redeemBatches).where(batchWhere(f))
  return row?.n ?? 0
}

export interface CodeFilter {
  batchId: number
  state?: 'unused' | 'used' | 'revoked'
  /** The hash of a code typed in by the operator. */
  hash?: string
}

const codeWhere = (f: CodeFilter): SQL | undefined =>
  and(
    eq(redeemCodes.batchId, f.batchId),
    f.state === 'unused' ? and(eq(redeemCodes.uses, 0), isNull(redeemCodes.revokedAt)) : undefined,
    f.state === 'used' ? and(sql`${redeemCodes.uses} > 0`, isNull(redeemCodes.revokedAt)) : undefined,
    f.state === 'revoked' ? isNotNull(redeemCodes.revokedAt) : undefined,
    f.hash ? eq(redeemCodes.codeHash, f.hash) : undefined,
  )

/** Codes of a batch by serial. */
export async function listCodes(db: DbOrTx, f: CodeFilter, desc_: boolean, w: { offset: number; limit: number }) {
  return db
    .select({
      id: redeemCodes.id,
      serial: redeemCodes.serial,
      uses: redeemCodes.uses,
      revokedAt: redeemCodes.revokedAt,
    })
    .from(redeemCodes)
    .where(codeWhere(f))
    .orderBy(desc_ ? desc(redeemCodes.serial) : asc(redeemCodes.serial))
    .offset(w.offset)
    .limit(w.limit)
}

/** The latest use of each of these codes (who and when). */
export async function latestUses(db: DbOrTx, codeIds: number[]) {
  if (codeIds.length === 0) return new Map<number, { memberId: number; usedAt: Date }>()
  const rows = await db
    .selectDistinctOn([redeemUses.codeId], {
      codeId: redeemUses.codeId,
      memberId: redeemUses.memberId,
      usedAt: redeemUses.usedAt,
    })
    .from(redeemUses)
    .where(inArray(redeemUses.codeId, codeIds))
    .orderBy(redeemUses.codeId, desc(redeemUses.id))
  return new Map(rows.map((r) => [r.codeId, r]))
}

export async function countCodes(db: DbOrTx, f: CodeFilter) {
  const [row] = await db.select({ n: count() }).from(redeemCodes).where(codeWhere(f))
  return row?.n ?? 0
}

// ---- The member's record ----------------------------------------------------------------------------------------

/** A member's uses, newest first, with the batch's name: `before` (exclusive) pages by time and id. */
export async function memberUses(db: DbOrTx, memberId: number, before: TimeCursor | null, limit: number) {
  const page = timeKeyset(redeemUses.usedAt, redeemUses.id, before)
  return db
    .select({ use: redeemUses, batchName: redeemBatches.name })
    .from(redeemUses)
    .innerJoin(redeemBatches, eq(redeemBatches.id, redeemUses.batchId))
    .where(and(eq(redeemUses.memberId, memberId), page.after))
    .orderBy(...page.order)
    .limit(limit)
}

/** Uses by id with their batch's name (the course page's "why": source_ref `redeem:<id>`). */
export async function findUsesByIds(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return []
  return db
    .select({ use: redeemUses, batchName: redeemBatches.name })
    .from(redeemUses)
    .innerJoin(redeemBatches, eq(redeemBatches.id, redeemUses.batchId))
    .where(inArray(redeemUses.id, ids))
}
