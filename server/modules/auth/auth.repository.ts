import { and, count, desc, eq, gte, inArray, isNull, lt, max, min, notInArray, or, sql } from 'drizzle-orm'
import type { DbOrTx, Tx } from '#server/db/database.ts'
import { deleteBatch, insertId, stampOnce } from '#server/db/rows.ts'
import { loginFailures, smsCodes } from '#server/db/schema/auth.ts'
import type { SmsPurpose } from '#server/integrations/sms/sms.ts'

/**
 * Serialises everything that reads and then writes one phone's (or one IP's) codes: two concurrent sends or logins
 * for the same phone queue here, so a limit cannot be passed twice. Released when the transaction ends.
 */
export async function lockKey(tx: Tx, key: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`)
}

/**
 * The phone's sends (all purposes): the latest, how many in the last hour and the oldest of those, and how many
 * since the start of the day.
 */
/**
 * Sends to one phone since the day's start or an hour ago. Confirmation codes (staff `step_up`, a member's
 * `account` export or deletion) are counted apart from sign-in and binding codes, so confirming an action just
 * after signing in is not "too frequent".
 */
export async function phoneSendStats(
  db: DbOrTx,
  phone: string,
  ip: string,
  dayStart: Date,
  hourAgo: Date,
  stepUp = false,
) {
  const since = new Date(Math.min(dayStart.getTime(), hourAgo.getTime()))
  const [row] = await db
    .select({
      lastAt: max(smsCodes.createdAt),
      hourCount: sql<number>`count(*) filter (where ${smsCodes.createdAt} > ${hourAgo})`.mapWith(Number),
      hourOldest:
        sql<Date | null>`min(${smsCodes.createdAt}) filter (where ${smsCodes.createdAt} > ${hourAgo})`.mapWith(
          (v: string | Date | null) => (v === null ? null : new Date(v)),
        ),
      dayCount: sql<number>`count(*) filter (where ${smsCodes.createdAt} >= ${dayStart})`.mapWith(Number),
      dayCountHere:
        sql<number>`count(*) filter (where ${smsCodes.createdAt} >= ${dayStart} and ${smsCodes.ip} = ${ip})`.mapWith(
          Number,
        ),
    })
    .from(smsCodes)
    .where(
      and(
        eq(smsCodes.phone, phone),
        gte(smsCodes.createdAt, since),
        stepUp
          ? inArray(smsCodes.purpose, ['step_up', 'account', 'contract'])
          : notInArray(smsCodes.purpose, ['step_up', 'account', 'contract']),
      ),
    )
  return row!
}

/** Sends from one IP since `since`, and the oldest of them. */
export async function ipSendStats(db: DbOrTx, ip: string, since: Date) {
  const [row] = await db
    .select({ total: count(), oldest: min(smsCodes.createdAt) })
    .from(smsCodes)
    .where(and(eq(smsCodes.ip, ip), sql`${smsCodes.createdAt} > ${since}`))
  return row!
}

/** A resend replaces the previous code: every live code of this phone and purpose dies. */
export async function consumeLiveCodes(db: DbOrTx, phone: string, purpose: SmsPurpose, at: Date) {
  await stampOnce(db, smsCodes, 'consumedAt', at, and(eq(smsCodes.phone, phone), eq(smsCodes.purpose, purpose)))
}

export async function insertCode(
  db: DbOrTx,
  row: { phone: string; purpose: SmsPurpose; codeHash: string; ip: string; createdAt: Date; expiresAt: Date },
) {
  return insertId(db, smsCodes, row)
}

/** Kills one code (its SMS could not be sent). */
export async function consumeCodeById(db: DbOrTx, id: number, at: Date) {
  await stampOnce(db, smsCodes, 'consumedAt', at, eq(smsCodes.id, id))
}

/** The newest live code of a phone and purpose, locked for this transaction. */
export async function latestLiveCode(tx: Tx, phone: string, purpose: SmsPurpose) {
  const [row] = await tx
    .select({
      id: smsCodes.id,
      codeHash: smsCodes.codeHash,
      attempts: smsCodes.attempts,
      expiresAt: smsCodes.expiresAt,
    })
    .from(smsCodes)
    .where(and(eq(smsCodes.phone, phone), eq(smsCodes.purpose, purpose), isNull(smsCodes.consumedAt)))
    .orderBy(desc(smsCodes.id))
    .limit(1)
    .for('update')
  return row
}

/**
 * Counts a wrong try; the try that reaches `maxAttempts` also kills the code. Returns the attempts so far, or
 * null when the code was no longer live.
 */
export async function recordWrongAttempt(db: DbOrTx, id: number, at: Date, maxAttempts: number) {
  const [row] = await db
    .update(smsCodes)
    .set({
      attempts: sql`${smsCodes.attempts} + 1`,
      consumedAt: sql`case when ${smsCodes.attempts} + 1 >= ${maxAttempts} then ${at}::timestamptz else null end`,
    })
    .where(and(eq(smsCodes.id, id), isNull(smsCodes.consumedAt)))
    .returning({ attempts: smsCodes.attempts })
  return row?.attempts ?? null
}

/** Uses a code up. Only one caller can win: the update matches only while the code is still live. */
export async function consumeCode(db: DbOrTx, id: number, at: Date) {
  const rows = await stampOnce(db, smsCodes, 'consumedAt', at, eq(smsCodes.id, id)).returning({ id: smsCodes.id })
  return rows.length === 1
}

/** Failed logins since `since`: for this phone and address, this address, and this phone (counts and latest). */
export async function recentLoginFailures(db: DbOrTx, phone: string, ip: string, since: Date) {
  const latest = (where: ReturnType<typeof sql>) =>
    sql<Date | null>`max(${loginFailures.createdAt}) filter (where ${where})`.mapWith((v: string | Date | null) =>
      v === null ? null : new Date(v),
    )
  const samePhone = sql`${loginFailures.phone} = ${phone}`
  const sameIp = sql`${loginFailures.ip} = ${ip}`
  const both = sql`${samePhone} and ${sameIp}`
  const [row] = await db
    .select({
      bothCount: sql<number>`count(*) filter (where ${both})`.mapWith(Number),
      bothLast: latest(both),
      ipCount: sql<number>`count(*) filter (where ${sameIp})`.mapWith(Number),
      ipLast: latest(sameIp),
      phoneCount: sql<number>`count(*) filter (where ${samePhone})`.mapWith(Number),
      phoneLast: latest(samePhone),
    })
    .from(loginFailures)
    .where(and(or(eq(loginFailures.phone, phone), eq(loginFailures.ip, ip)), gte(loginFailures.createdAt, since)))
  const r = row!
  return {
    phoneAndAddress: { count: r.bothCount, lastAt: r.bothLast },
    address: { count: r.ipCount, lastAt: r.ipLast },
    phone: { count: r.phoneCount, lastAt: r.phoneLast },
  }
}

export async function insertLoginFailure(db: DbOrTx, phone: string, ip: string, at: Date) {
  await db.insert(loginFailures).values({ phone, ip, createdAt: at })
}

/**
 * Deletes up to `limit` codes created before `before` that have expired, and returns how many. Rows another
 * transaction holds are skipped (another process's cleanup, a login), so this never waits on them.
 */
export async function deleteOldSmsCodes(db: DbOrTx, before: Date, now: Date, limit: number) {
  return deleteBatch(db, smsCodes.id, and(lt(smsCodes.createdAt, before), lt(smsCodes.expiresAt, now)), limit)
}

/** Deletes up to `limit` failed logins recorded before `before`; how many. */
export async function deleteOldLoginFailures(db: DbOrTx, before: Date, limit: number) {
  return deleteBatch(db, loginFailures.id, lt(loginFailures.createdAt, before), limit)
}
