import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { redeemGuesses } from '#server/db/schema/redeem.ts'

// The guessing limit's counters: one row per key ("m:<member>" or "ip:<address>") holding the wrong codes of a
// fixed window. One statement each, atomic under concurrency, shared by every process (the table is in PostgreSQL).

/**
 * Counts one attempt for each of `keys` in a window of `windowMs`, in one statement: each key's attempts so far in
 * its window and the ms the window has left.
 */
export async function hitGuesses(db: DbOrTx, keys: string[], windowMs: number) {
  const { rows } = await db.execute<{ key: string; hits: number; ttl: string }>(sql`
    insert into ${redeemGuesses} as g (key, hits, reset_at)
    select k, 1, now() + make_interval(secs => ${windowMs / 1000}) from unnest(${`{${keys.map((k) => `"${k.replace(/["\\]/g, '')}"`).join(',')}}`}::text[]) as k
    on conflict (key) do update set
      hits = case when g.reset_at <= now() then 1 else g.hits + 1 end,
      reset_at = case when g.reset_at <= now() then now() + make_interval(secs => ${windowMs / 1000}) else g.reset_at end
    returning g.key, g.hits, ceil(extract(epoch from g.reset_at - now()) * 1000) as ttl`)
  return rows.map((r) => ({ key: r.key, hits: Number(r.hits), ttlMs: Math.max(0, Number(r.ttl)) }))
}

/** Takes back one attempt of each of `keys` (it was a real code, or it was refused unseen). */
export async function undoGuesses(db: DbOrTx, keys: string[]) {
  await db.execute(
    sql`update ${redeemGuesses} set hits = greatest(hits - 1, 0) where key = any(${`{${keys.map((k) => `"${k.replace(/["\\]/g, '')}"`).join(',')}}`}::text[]) and reset_at > now()`,
  )
}

/** Drops counters whose window ended. */
export async function sweepGuesses(db: DbOrTx) {
  await db.execute(sql`delete from ${redeemGuesses} where reset_at < now()`)
}
