import { sql } from 'drizzle-orm'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { useTestDatabase } from '#tests/support/database.ts'
import { withTryLock } from './payments.repository.ts'

// The background rounds (payment sweeps, reconciliation, platform sync) each hold an advisory lock on a pooled
// connection while their work runs on others, on real PostgreSQL with the smallest pool the app allows.
describe('withTryLock on a pool of 2 connections', () => {
  const database = useTestDatabase(2)

  it('runs rounds started together one after another instead of taking every connection and waiting forever', async () => {
    const { db } = await database()
    const done: number[] = []
    const rounds = [1, 2, 3].map((n) =>
      withTryLock(db, 710_000 + n, async () => {
        // The round's own work, on another connection of the pool than the lock's.
        await db.execute(sql`select pg_sleep(0.05)`)
        done.push(n)
        return n
      }),
    )
    expect(await Promise.all(rounds)).toEqual([1, 2, 3])
    expect(done).toEqual([1, 2, 3])
  }, 15_000)

  it('skips a round whose lock another session holds, and the next round still runs', async () => {
    const { db, pool } = await database()
    const other = new pg.Client({ connectionString: (pool.options as { connectionString: string }).connectionString })
    await other.connect()
    try {
      await other.query('select pg_advisory_lock(710100)')
      let ran = false
      expect(await withTryLock(db, 710_100, async () => (ran = true))).toBeNull()
      expect(ran).toBe(false)
      expect(await withTryLock(db, 710_101, async () => 'ran')).toBe('ran')
    } finally {
      await other.end()
    }
  })
})
