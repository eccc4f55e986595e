import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { redeemGuesses } from '#server/db/schema/redeem.ts'

// The guessing limit's counters: one row per key ("m:<member>" or "ip:<address>") holding the wrong codes of a
// fixed window. One statement each, atomic under concurrency, shared by every process (the table is in PostgreSQL).

/** Counts one attempt for `key` in a window of `windowMs`: the attempts so far and the ms the window has left. */
export async function hitGuess(db: DbOrTx, key: string, windowMs: number) {
  const { rows } = await db.execute<{ hits: number; ttl: string }>(sql`
    insert into ${redeemGuesses} as g (key, hits, reset_at)
    values (${key}, 1, now() + make_interval(secs => ${windowMs / 1000}))
    on conflict (key) do update set
      hits = case when g.reset_at <= now() then 1 else g.hits + 1 end,
      reset_at = case when g.reset_at <= now() then now() + make_interval(secs => ${windowMs / 1000}) else g.reset_at end
    returning g.hits, ceil(extract(epoch from g.reset_at - now()) * 1000) as ttl`)
  const row = rows[0]!
  return { hits: Number(row.hits), ttlMs: Math.max(0, Number(row.ttl)) }
}

/** Takes back one attempt of `key` (it was a real code, not a guess). */
export async function undoGuess(db: DbOrTx, key: string) {
  await db.execute(
    sql`update ${redeemGuesses} set hits = greatest(hits - 1, 0) where key = ${key} and reset_at > now()`,
  )
}

/** Drops counters whose window ended. */
export async function sweepGuesses(db: DbOrTx) {
  await db.execute(sql`delete from ${redeemGuesses} where reset_at < now()`)
}
