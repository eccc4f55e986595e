import { describe, expect, it } from 'vitest'
import { useTestDatabase } from '#tests/support/database.ts'
import type { DbOrTx } from './database.ts'
import { shapedStatements } from './prepared.ts'

const database = useTestDatabase()

describe('shapedStatements', () => {
  it('prepares each text once under its own name, and runs texts past the bound unnamed', async () => {
    const { pool } = await database()
    const client = await pool.connect()
    try {
      // The connection itself as the handle: every statement below runs on it, so its prepared ones can be listed.
      const tx = { session: { client } } as unknown as DbOrTx
      const run = shapedStatements('prepared_test_shape', 2)
      const prepared = async () =>
        (
          await client.query<{ name: string }>(
            `select name from pg_prepared_statements where name like 'prepared_test_shape%' order by name`,
          )
        ).rows.map((r) => r.name)
      expect(await run<{ n: number }>(tx, 'select $1::int + 1 as n', [1])).toEqual([{ n: 2 }])
      expect(await run<{ n: number }>(tx, 'select $1::int + 1 as n', [41])).toEqual([{ n: 42 }])
      expect(await run<{ n: number }>(tx, 'select $1::int * 2 as n', [4])).toEqual([{ n: 8 }])
      expect(await prepared()).toEqual(['prepared_test_shape_1', 'prepared_test_shape_2'])
      // A third text: answered, not kept.
      expect(await run<{ s: string }>(tx, `select $1::text || '!' as s`, ['a'])).toEqual([{ s: 'a!' }])
      expect(await prepared()).toEqual(['prepared_test_shape_1', 'prepared_test_shape_2'])
    } finally {
      client.release()
    }
  })
})
