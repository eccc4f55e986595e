// The search documents stay current: every change to what a course's document is built from (its title and tags,
// its lessons, its teacher's name, its categories' names) marks it stale in PostgreSQL (migration 0016's
// triggers, whoever writes), and the operators' editing rebuilds it before answering.
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { seedIfEmpty } from '#server/db/seed.ts'
import { clearAllCaches } from '#server/http/public-cache.ts'
import { useTestApp } from '#tests/support/app.ts'
import { createCatalogueEditor, refreshSearchDocuments } from './catalogue.service.ts'
import type { SearchResult } from './search.schema.ts'
import { pruneSearchWords } from './search-words.repository.ts'

describe('search documents follow the catalogue', () => {
  const t = useTestApp()
  const db = () => t().database.db

  beforeAll(async () => {
    await seedIfEmpty(db(), { info: () => {} })
  })

  async function titles(keyword: string) {
    const res = await t().app.inject({
      method: 'GET',
      url: `/api/searchCourse?limit=50&keyword=${encodeURIComponent(keyword)}`,
    })
    return res.json<{ data: SearchResult }>().data.list.map((c) => c.title)
  }

  async function staleCount() {
    const { rows } = await db().execute<{ n: number }>(sql`select count(*)::int as n from course_search where stale`)
    return rows[0]!.n
  }

  /** A write in plain SQL (as a seed or a script would), then the sweep's work. */
  async function sqlWrite(statement: ReturnType<typeof sql>) {
    await db().execute(statement)
    expect(await staleCount(), 'the write marked documents stale').toBeGreaterThan(0)
    await refreshSearchDocuments(db())
    expect(await staleCount()).toBe(0)
  }

  it('has a fresh document for every demo course after the seed', async () => {
    const { rows } = await db().execute<{ courses: number; docs: number }>(
      sql`select (select count(*)::int from courses) as courses,
        (select count(*)::int from course_search where not stale and doc <> ''::tsvector) as docs`,
    )
    expect(rows[0]!.docs).toBe(rows[0]!.courses)
  })

  it('a course title change', async () => {
    expect(await titles('鸢尾')).toEqual([])
    await sqlWrite(sql`update courses set title = '水彩鸢尾花入门' where title = '水彩花卉入门'`)
    expect(await titles('鸢尾')).toEqual(['水彩鸢尾花入门'])
    expect(await titles('yuanwei')).toEqual(['水彩鸢尾花入门'])
    expect(await titles('花卉入门')).toEqual([])
  })

  it('tags', async () => {
    await sqlWrite(sql`update courses set tags = array['写意'] where title = '水彩风景写生'`)
    expect(await titles('写意')).toEqual(['水彩风景写生'])
  })

  it('a lesson added, renamed and deleted', async () => {
    await sqlWrite(
      sql`insert into videos (course_id, title) select id, '晕染技法练习' from courses where title = '素描头像完整课'`,
    )
    expect(await titles('晕染')).toEqual(['素描头像完整课'])
    await sqlWrite(sql`update videos set title = '渐层练习' where title = '晕染技法练习'`)
    expect(await titles('晕染')).toEqual([])
    expect(await titles('渐层')).toEqual(['素描头像完整课'])
    await sqlWrite(sql`delete from videos where title = '渐层练习'`)
    expect(await titles('渐层')).toEqual([])
  })

  it('a chapter title', async () => {
    await sqlWrite(
      sql`insert into chapters (course_id, title) select id, '番外：速写本' from courses where title = '原创角色设计'`,
    )
    expect(await titles('速写本')).toEqual(['原创角色设计'])
  })

  it('a teacher renamed', async () => {
    await sqlWrite(sql`update teachers set name = '何静怡' where name = '何静'`)
    expect(await titles('静怡')).toEqual(
      expect.arrayContaining(['AutoCAD 室内制图从入门到精通', '室内设计入门：从量房到效果图']),
    )
    expect(await titles('hejingyi')).toContain('小户型收纳与软装搭配')
  })

  it('a category and its parent renamed', async () => {
    await sqlWrite(sql`update categories set name = '条漫连载' where name = '条漫'`)
    expect(await titles('连载')).toEqual(expect.arrayContaining(['漫画投稿与签约经验分享']))
    await sqlWrite(sql`update categories set name = '动漫' where name = '漫画' and parent_id is null`)
    expect(await titles('动漫')).toEqual(expect.arrayContaining(['漫画分镜与镜头语言', '日系漫画人物入门']))
  })

  it('the vocabulary of corrections gains a new word at once and loses it when pruned', async () => {
    const words = async () =>
      (
        await db().execute<{ word: string }>(
          sql`select word from search_words where word in ('houdini', '~hudilizi', '^hdlz', '胡迪', '胡') order by word`,
        )
      ).rows.map((r) => r.word)
    expect(await titles('houdinni')).toEqual([])
    await sqlWrite(sql`update courses set title = 'Houdini 胡迪粒子特效' where title = '原创角色设计'`)
    // Latin words of three letters or more, pinyin runs and character pairs (not shorter words, not initials).
    expect(await words()).toEqual(['houdini', '~hudilizi', '胡迪'])
    expect(await titles('houdinni')).toEqual(['Houdini 胡迪粒子特效'])
    await sqlWrite(sql`update courses set title = '原创角色设计' where title = 'Houdini 胡迪粒子特效'`)
    expect(await words(), 'kept until pruned').toEqual(['houdini', '~hudilizi', '胡迪'])
    expect(await titles('houdinni'), 'a correction that finds nothing is not made').toEqual([])
    expect(await pruneSearchWords(db())).toBeGreaterThan(0)
    expect(await words()).toEqual([])
    const { rows } = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from search_words w where not exists (select 1 from course_terms t where t.term = w.word)`,
    )
    expect(rows[0]!.n).toBe(0)
  })

  it('learners and status are copied at once, with no rebuild', async () => {
    expect((await titles('素描'))[0]).not.toBe('素描头像完整课')
    // Plain SQL, so no write of the app drops the cached search pages (they would answer for a few seconds, as the
    // course lists do): what is checked here is the documents.
    await db().execute(sql`update courses set student_count = 999999 where title = '素描头像完整课'`)
    clearAllCaches()
    expect((await titles('素描'))[0]).toBe('素描头像完整课')
    expect((await titles('素描 头像'))[0]).toBe('素描头像完整课')
    await db().execute(sql`update courses set status = 'hidden' where title = '素描头像完整课'`)
    clearAllCaches()
    expect(await titles('素描')).not.toContain('素描头像完整课')
    expect(await titles('素描 头像')).not.toContain('素描头像完整课')
  })

  it('a change through the operators’ editing is searchable when the call returns', async () => {
    const editor = createCatalogueEditor({ db: db(), now: () => new Date() })
    const { rows } = await db().execute<{ id: number; category_id: number }>(
      sql`select id, category_id from courses where title = '工作汇报 PPT 速成'`,
    )
    await editor.updateCourse(rows[0]!.id, { title: '述职汇报 PPT 速成' })
    expect(await titles('述职')).toEqual(['述职汇报 PPT 速成'])
    const created = await editor.createCourse({
      type: 'series',
      title: 'Blender 低多边形场景',
      cover_url: '/covers/x.jpg',
      category_id: rows[0]!.category_id,
      price_fen: 0,
      is_free: true,
      status: 'published',
    })
    expect(await titles('blender')).toEqual(['Blender 低多边形场景'])
    // A lesson names no list of courses: the search page cached here is dropped by the rebuilt document.
    expect(await titles('布线')).not.toContain('Blender 低多边形场景')
    await editor.createVideo({ course_id: created.id, title: '拓扑与布线' })
    expect(await titles('布线')).toEqual(['Blender 低多边形场景'])
    expect(await staleCount()).toBe(0)
  })
})
