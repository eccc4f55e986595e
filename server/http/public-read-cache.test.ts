import { beforeAll, describe, expect, it, vi } from 'vitest'
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

  it('checks a course list’s category by its id, without counting every category’s courses', async () => {
    const { pool } = t().database
    const [{ id }] = (await pool.query<{ id: number }>('select id from categories where parent_id is not null limit 1'))
      .rows as [{ id: number }]
    // Calls through to the pool, recording what each statement was.
    const spy = vi.spyOn(pool, 'query')
    let sent: string[]
    try {
      const res = await t().app.inject({ method: 'GET', url: `/api/v2/course_list?cate_id=${id}` })
      expect(res.json<{ code: number }>().code).toBe(200)
    } finally {
      sent = spy.mock.calls.map(([q]) => (typeof q === 'string' ? q : (q as { text: string }).text))
      spy.mockRestore()
    }
    expect(sent.length).toBeGreaterThan(0)
    // The tree's counts read every published course (9 ms at 100,000 courses): a list needs none of them.
    for (const text of sent) expect(text).not.toMatch(/count\(/i)
  })

  it('reads every course page from PostgreSQL', async () => {
    const { before, after } = await titleAfterSqlRename(t, '缓存关闭时的新标题')
    expect(before).not.toBe('缓存关闭时的新标题')
    expect(after).toBe('缓存关闭时的新标题')
  })
})
