import type pg from 'pg'

/** One hit for `key` in a window of `windowMs`, atomically: the hits so far in this window and the ms it has left. */
export async function hit(pool: pg.Pool, key: string, windowMs: number) {
  const { rows } = await pool.query<{ hits: number; ttl: string }>(
    `INSERT INTO rate_limits AS r (key, hits, reset_at) VALUES ($1, 1, now() + make_interval(secs => $2 / 1000.0))
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN r.reset_at <= now() THEN 1 ELSE r.hits + 1 END,
       reset_at = CASE WHEN r.reset_at <= now() THEN now() + make_interval(secs => $2 / 1000.0) ELSE r.reset_at END
     RETURNING r.hits, ceil(extract(epoch FROM r.reset_at - now()) * 1000) AS ttl`,
    [key, windowMs],
  )
  const row = rows[0]!
  return { current: row.hits, ttl: Math.max(0, Number(row.ttl)) }
}

/**
 * Several keys' hits at once (the general rule's pre-count, written in batches): one statement, keys in a fixed
 * order so two instances writing overlapping batches cannot deadlock. Answers each key's hits in its window so far
 * (everyone's) and the ms the window has left.
 */
export async function hitMany(pool: pg.Pool, hits: ReadonlyMap<string, number>, windowMs: number) {
  const keys = [...hits.keys()].sort()
  const { rows } = await pool.query<{ key: string; hits: number; ttl: string }>(
    `INSERT INTO rate_limits AS r (key, hits, reset_at)
     SELECT k, n, now() + make_interval(secs => $3 / 1000.0) FROM unnest($1::text[], $2::int[]) AS x(k, n)
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN r.reset_at <= now() THEN excluded.hits ELSE r.hits + excluded.hits END,
       reset_at = CASE WHEN r.reset_at <= now() THEN excluded.reset_at ELSE r.reset_at END
     RETURNING r.key, r.hits, ceil(extract(epoch FROM r.reset_at - now()) * 1000) AS ttl`,
    [keys, keys.map((k) => hits.get(k)!), windowMs],
  )
  return new Map(rows.map((r) => [r.key, { current: r.hits, ttl: Math.max(0, Number(r.ttl)) }]))
}

/** The counters of `key` without counting a hit. */
export async function peek(pool: pg.Pool, key: string) {
  const { rows } = await pool.query<{ hits: number; ttl: string }>(
    `SELECT hits, ceil(extract(epoch FROM reset_at - now()) * 1000) AS ttl FROM rate_limits
     WHERE key = $1 AND reset_at > now()`,
    [key],
  )
  const row = rows[0]
  return row ? { current: row.hits, ttl: Number(row.ttl) } : { current: 0, ttl: 0 }
}

/** Drops counters whose window ended a while ago. */
export async function sweep(pool: pg.Pool) {
  await pool.query(`DELETE FROM rate_limits WHERE reset_at < now() - interval '10 minutes'`)
}
