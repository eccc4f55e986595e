import { expect, it } from 'vitest'
import { useTestDatabase } from '#tests/support/database.ts'

const database = useTestDatabase()

it('gives callers racing on the first call one database, not one each', async () => {
  const [a, b, c] = await Promise.all([database(), database(), database()])
  expect(b).toBe(a)
  expect(c).toBe(a)
  const { rows } = await a.pool.query<{ name: string }>('select current_database() as name')
  expect(rows[0]!.name).toMatch(/^zixue_t_/)
})
