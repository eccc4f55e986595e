import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { seedIfEmpty } from '#server/db/seed.ts'
import { useTestApp } from '#tests/support/app.ts'
import { containsPattern, searchCourses } from './search.repository.ts'
import type { SearchHit, SearchResult } from './search.schema.ts'
import { findRanges, keywordWords } from './search.ts'

interface Envelope<T> {
  code: number
  msg: string
  data: T
}

const titleMarks = (hit: SearchHit) => hit.highlights.title.map((r) => hit.title.slice(r.start, r.end))

describe('GET /api/searchCourse', () => {
  const t = useTestApp()

  beforeAll(async () => {
    await seedIfEmpty(t().database.db, { info: () => {} })
  })

  async function search(keyword: string, extra = '') {
    const res = await t().app.inject({
      method: 'GET',
      url: `/api/searchCourse?keyword=${encodeURIComponent(keyword)}${extra}`,
    })
    return { status: res.statusCode, body: res.json<Envelope<SearchResult>>() }
  }

  it('finds courses by a Chinese word in the title and marks where it is', async () => {
    const { body } = await search('剪映')
    expect(body.code).toBe(200)
    expect(body.data.keyword).toBe('剪映')
    const hit = body.data.list.find((c) => c.title === '剪映手机剪辑从入门到精通')
    expect(hit).toBeDefined()
    expect(hit!.matched).toContain('title')
    expect(titleMarks(hit!)).toEqual(['剪映'])
    expect(hit!.highlights.title[0]).toEqual({ start: 0, end: 2 })
  })

  it('finds 剪辑 in titles and in the category 视频剪辑, title matches first', async () => {
    const { body } = await search('剪辑')
    const titles = body.data.list.map((c) => c.title)
    expect(titles).toContain('剪映手机剪辑从入门到精通')
    expect(titles).toContain('Premiere 视频剪辑全流程')
    // 达芬奇调色 has 剪辑 neither in its title nor its teacher: it is found through its category (视频剪辑).
    const colour = body.data.list.find((c) => c.title === '达芬奇调色：电影感画面')
    expect(colour?.matched).toEqual(['category'])
    expect(colour?.highlights.title).toEqual([])
    const firstCategoryOnly = body.data.list.findIndex((c) => !c.matched.includes('title'))
    const lastTitle = body.data.list.findLastIndex((c) => c.matched.includes('title'))
    expect(firstCategoryOnly).toBeGreaterThan(lastTitle)
  })

  it('matches Latin words case-insensitively and highlights them as written in the title', async () => {
    const { body } = await search('photoshop')
    const titles = body.data.list.map((c) => c.title)
    expect(titles).toEqual(expect.arrayContaining(['Photoshop 零基础入门', 'Photoshop 人像精修实战']))
    for (const hit of body.data.list.filter((c) => c.matched.includes('title')))
      expect(titleMarks(hit)).toEqual(['Photoshop'])
  })

  it('finds a teacher’s courses by the teacher’s name, with the name highlighted', async () => {
    const { body } = await search('周野')
    expect(body.data.list.length).toBeGreaterThanOrEqual(5)
    for (const hit of body.data.list) {
      expect(hit.teacher_name).toBe('周野')
      expect(hit.matched).toEqual(['teacher'])
      expect(hit.highlights.teacher_name).toEqual([{ start: 0, end: 2 }])
    }
  })

  it('needs every word of a keyword with spaces, in any field', async () => {
    const { body } = await search('  剪辑   周野 ')
    expect(body.data.keyword).toBe('剪辑 周野')
    expect(body.data.words).toEqual(['剪辑', '周野'])
    expect(body.data.list.length).toBeGreaterThan(0)
    for (const hit of body.data.list) expect(hit.teacher_name).toBe('周野')
    const { body: none } = await search('剪辑 林晓')
    expect(none.data.list).toEqual([])
  })

  it('takes % and _ literally', async () => {
    expect((await search('%')).body.data.list).toEqual([])
    expect((await search('_')).body.data.list).toEqual([])
  })

  it('answers an empty list for a word nothing contains', async () => {
    const { status, body } = await search('量子力学')
    expect(status).toBe(200)
    expect(body.data).toMatchObject({ list: [], next_cursor: null })
  })

  it('pages with a cursor through every result once', async () => {
    const all = (await search('入门', '&limit=50')).body.data.list
    expect(all.length).toBeGreaterThan(3)
    const seen: number[] = []
    let cursor: string | null = null
    do {
      const { body }: { body: Envelope<SearchResult> } = await search(
        '入门',
        `&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      )
      seen.push(...body.data.list.map((c) => c.id))
      cursor = body.data.next_cursor
    } while (cursor)
    expect(seen).toEqual(all.map((c) => c.id))
  })

  it('rejects a missing, blank or too long keyword and a foreign cursor with 400', async () => {
    const missing = await t().app.inject({ method: 'GET', url: '/api/searchCourse' })
    expect(missing.statusCode).toBe(400)
    expect(missing.json<Envelope<unknown>>().msg).toContain('keyword')
    const blank = await search('   ')
    expect(blank.status).toBe(400)
    expect(blank.body.msg).toContain('keyword')
    expect((await search('字'.repeat(51))).status).toBe(400)
    const first = await search('入门', '&limit=1')
    const other = await search('剪辑', `&cursor=${first.body.data.next_cursor}`)
    expect(other.status).toBe(400)
    expect(other.body.msg).toContain('cursor')
    expect((await search('入门', '&cursor=notbase64json')).status).toBe(400)
  })

  it('leaves hidden courses out', async () => {
    const db = t().database.db
    await db.execute(sql`update courses set status = 'hidden' where title = 'Photoshop 人像精修实战'`)
    try {
      const { body } = await search('Photoshop')
      expect(body.data.list.map((c) => c.title)).not.toContain('Photoshop 人像精修实战')
    } finally {
      await db.execute(sql`update courses set status = 'published' where title = 'Photoshop 人像精修实战'`)
    }
  })

  async function plan(words: string[]) {
    return t().database.db.transaction(async (tx) => {
      // The demo catalogue is small enough that the planner would scan it anyway; forbid scans to see whether an
      // index path exists at all.
      await tx.execute(sql`set local enable_seqscan = off`)
      const query = searchCourses(tx, words, undefined, 21).toSQL()
      const rows = await tx.execute<{ 'QUERY PLAN': string }>(
        sql.raw(`explain ${interpolate(query.sql, query.params)}`),
      )
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n')
    })
  }

  it('never reads the whole courses table for words of three or more characters (trigram indexes)', async () => {
    for (const words of [['剪映手机'], ['Photoshop'], ['视频剪辑'], ['Premiere', '全流程']]) {
      const text = await plan(words)
      expect(text, text).not.toMatch(/Seq Scan on courses/)
      // Every ILIKE is answered by an index, never checked row by row over a whole table.
      expect(text, text).not.toMatch(/Filter: \((title|name) ~~\*/)
      for (const index of ['courses_title_trgm_idx', 'teachers_name_trgm_idx', 'categories_name_trgm_idx'])
        expect(text).toContain(index)
    }
  })

  it('scans for one- and two-character words, which trigrams cannot index (documented in search.repository.ts)', async () => {
    const text = await plan(['剪映'])
    expect(text).not.toContain('courses_title_trgm_idx')
    expect(text).toMatch(/Filter: \(title ~~\* '%剪映%'/)
  })
})

/** Inlines the parameters of a query for EXPLAIN (test-only; values are our own fixed words and numbers). */
function interpolate(text: string, params: unknown[]) {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const v = params[Number(n) - 1]
    return typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`
  })
}

describe('search helpers', () => {
  it('splits a keyword into distinct words, at most five', () => {
    expect(keywordWords('PS ps Ps 调色')).toEqual(['PS', '调色'])
    expect(keywordWords('a b c d e f g')).toEqual(['a', 'b', 'c', 'd', 'e'])
  })

  it('escapes LIKE pattern characters', () => {
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%')
  })

  it('finds and merges ranges case-insensitively', () => {
    expect(findRanges('Photoshop 人像 photoshop', ['PHOTOSHOP'])).toEqual([
      { start: 0, end: 9 },
      { start: 13, end: 22 },
    ])
    expect(findRanges('剪映手机剪辑', ['剪映手', '手机剪'])).toEqual([{ start: 0, end: 5 }])
    expect(findRanges(null, ['x'])).toEqual([])
  })
})
