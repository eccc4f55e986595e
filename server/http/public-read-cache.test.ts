import { beforeAll, describe, expect, it } from 'vitest'
import { seedIfEmpty } from '#server/db/seed.ts'
import { useTestApp } from '#tests/support/app.ts'

// PUBLIC_READ_CACHE (server/config.ts) decides whether the public reads are kept in memory. A title changed by
// plain SQL (no invalidation) shows whether a course page came from the cache or from PostgreSQL.
function useSeededApp(env: Parameters<typeof useTestApp>[0]) {
  const t = useTestApp(env)
  beforeAll(async () => {
    await seedIfEmpty(t().database.db, { info: () => {} })
  })
  return t
}

async function titleAfterSqlRename(t: ReturnType<typeof useTestApp>, title: string) {
  const read = async () =>
    (await t().app.inject({ method: 'GET', url: '/api/course?id=1001' })).json<{ data: { title: string } }>()
  const before = await read()
  expect(before.data.title).toBeTruthy()
  await t().database.pool.query('update courses set title = $1 where id = 1001', [title])
  return { before: before.data.title, after: (await read()).data.title }
}

describe('public read caches on (the default)', () => {
  const t = useSeededApp({})

  it('answers a course page from memory until a write invalidates it', async () => {
    const { before, after } = await titleAfterSqlRename(t, '缓存开启时的新标题')
    expect(after).toBe(before)
  })
})

describe('PUBLIC_READ_CACHE=false', () => {
  const t = useSeededApp({ PUBLIC_READ_CACHE: 'false' })

  it('reads every course page from PostgreSQL', async () => {
    const { before, after } = await titleAfterSqlRename(t, '缓存关闭时的新标题')
    expect(before).not.toBe('缓存关闭时的新标题')
    expect(after).toBe('缓存关闭时的新标题')
  })
})
