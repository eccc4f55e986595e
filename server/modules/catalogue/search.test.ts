import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { seedIfEmpty } from '#server/db/seed.ts'
import { useTestApp } from '#tests/support/app.ts'
import type { SearchHit, SearchResult } from './search.schema.ts'
import { refreshSearchDocuments } from './search-index.ts'
import { keywordWords } from './search.ts'
import { searchCourses, titlePage } from './search.repository.ts'
import { fold, matchRanges, NFKC_STABLE, searchDocument, weighted, wordQuery } from './search-text.ts'
import { closestPrefix, editDistance, maxEdits } from './search-typos.ts'
import { firstWordFound, spellingCandidates } from './search-words.repository.ts'

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

  // What a learner types, and what must come back (`first`: the top results in this order; `includes`: anywhere;
  // `exactly`: the whole list, in any order; `excludes`: never).
  const queries: [
    string,
    string,
    { first?: string[]; includes?: string[]; exactly?: string[]; excludes?: string[] },
  ][] = [
    [
      'one character, in titles first',
      '画',
      {
        first: ['日系漫画人物入门', '日漫头发与表情画法'],
        includes: ['板绘直播：一小时画一张头像', 'Photoshop 零基础入门'],
      },
    ],
    ['two characters', '水彩', { exactly: ['水彩花卉入门', '水彩风景写生'] }],
    ['two characters in a title and a tag', '函数', { first: ['Excel 函数与公式实战'] }],
    ['three characters, whole', '快捷键', { first: ['10 分钟掌握 PS 高频快捷键'] }],
    ['pinyin, full', 'shuicai', { exactly: ['水彩花卉入门', '水彩风景写生'] }],
    ['pinyin, full, any case', 'ShuiCai', { exactly: ['水彩花卉入门', '水彩风景写生'] }],
    ['pinyin, initials', 'sc', { includes: ['水彩花卉入门', '水彩风景写生'] }],
    ['pinyin of a teacher', 'zhouye', { first: ['剪映手机剪辑从入门到精通'], excludes: ['Photoshop 零基础入门'] }],
    [
      'an abbreviation: PS courses first, then pinyin initials (配色)',
      'ps',
      {
        first: ['10 分钟掌握 PS 高频快捷键', 'Photoshop 零基础入门', 'Photoshop 人像精修实战'],
        includes: ['平面设计基础：版式与配色'],
      },
    ],
    [
      'English, lower case',
      'photoshop',
      { first: ['10 分钟掌握 PS 高频快捷键', 'Photoshop 零基础入门', 'Photoshop 人像精修实战'] },
    ],
    ['English, upper case', 'EXCEL', { first: ['Excel 一键美化表格', 'Excel 函数与公式实战'] }],
    ['English, a word start', 'Proc', { exactly: ['Procreate 板绘零基础'] }],
    ['English, full width', 'ＥＸＣＥＬ', { first: ['Excel 一键美化表格'] }],
    ['mixed Chinese and English, one word', 'PS快捷键', { exactly: ['10 分钟掌握 PS 高频快捷键'] }],
    ['mixed Chinese and English, two words', 'excel 透视', { exactly: ['Excel 数据透视表与可视化看板'] }],
    // Several words: every word must match somewhere (an abbreviation in the title, a word in a lesson title).
    ['several words, an abbreviation and a lesson', 'ps 抠图', { exactly: ['Photoshop 零基础入门'] }],
    ['several words, two Chinese words', '水彩 入门', { first: ['水彩花卉入门'], excludes: ['日系漫画人物入门'] }],
    ['several words, pinyin and Chinese', 'shuicai 风景', { exactly: ['水彩风景写生'] }],
    ['several words, a rare and a common one', 'figma 设计', { first: ['UI 设计入门：Figma 实战'] }],
    ['several words, one matching nothing', '设计 量子', { exactly: [] }],
    ['a long Chinese word', '数据透视表', { exactly: ['Excel 数据透视表与可视化看板'] }],
    ['a tag', '电影感', { exactly: ['达芬奇调色：电影感画面'] }],
    ['a lesson title', '示波器', { exactly: ['达芬奇调色：电影感画面'] }],
    ['a category', '室内设计', { first: ['室内设计入门：从量房到效果图'], includes: ['小户型收纳与软装搭配'] }],
    ['a parent category', '漫画', { includes: ['条漫创作：从脚本到上架', '漫画分镜与镜头语言'] }],
    ['a single letter is a whole word', 'c', { exactly: [] }],
    // Typos: a keyword that finds nothing is searched again with its misspelt words corrected (search-typos.ts).
    [
      'typo, a letter missing',
      'photosop',
      { first: ['10 分钟掌握 PS 高频快捷键', 'Photoshop 零基础入门', 'Photoshop 人像精修实战'] },
    ],
    ['typo, a letter missing in a short word', 'exel', { first: ['Excel 一键美化表格', 'Excel 函数与公式实战'] }],
    ['typo, two letters swapped', 'premeire', { first: ['Premiere 视频剪辑全流程'] }],
    ['typo, a wrong letter', 'illustrater', { first: ['Illustrator 矢量图形设计'] }],
    ['typo, an extra letter', 'procreatte', { exactly: ['Procreate 板绘零基础'] }],
    ['typo, a swap few trigrams survive', 'fimga', { first: ['UI 设计入门：Figma 实战'] }],
    ['typo in pinyin', 'shuicia', { exactly: ['水彩花卉入门', '水彩风景写生'] }],
    // tiose shares less of tiaose's trigrams than pg_trgm's default threshold asks (the connection sets 0.4).
    ['typo in pinyin, few trigrams shared', 'tiose', { includes: ['达芬奇调色：电影感画面'] }],
    ['typo, one wrong character (read the same)', '数据透式表', { exactly: ['Excel 数据透视表与可视化看板'] }],
    ['typo, the last character wrong', '快捷建', { exactly: ['10 分钟掌握 PS 高频快捷键'] }],
    ['typo, one wrong character among four', '水采花卉', { exactly: ['水彩花卉入门'] }],
    ['typo in one word of several', 'photosop 抠图', { exactly: ['Photoshop 零基础入门'] }],
    ['a typo nothing is close to', 'xyzzyq', { exactly: [] }],
    ['two wrong characters are not corrected', '数锯透式表', { exactly: [] }],
  ]

  it.each(queries)('%s: %s', async (name, keyword, expected) => {
    const { data } = (await search(keyword, '&limit=50')).body
    const titles = data.list.map((c) => c.title)
    // Only a misspelt keyword is searched again corrected: what finds courses as typed must find them so (a word
    // start or a pinyin run read wrongly would otherwise pass through a correction).
    if (!name.startsWith('typo') && titles.length > 0) expect(data.corrected, 'found as typed').toBeUndefined()
    if (expected.exactly) expect([...titles].sort()).toEqual([...expected.exactly].sort())
    if (expected.first) expect(titles.slice(0, expected.first.length)).toEqual(expected.first)
    if (expected.includes) expect(titles).toEqual(expect.arrayContaining(expected.includes))
    for (const t of expected.excludes ?? []) expect(titles).not.toContain(t)
  })

  it('says what it searched instead of a misspelt keyword, marks the corrected word, and pages on with it', async () => {
    const first = (await search('exel', '&limit=1')).body.data
    expect(first).toMatchObject({ keyword: 'exel', corrected: 'excel', words: ['excel'] })
    expect(titleMarks(first.list[0]!)).toEqual(['Excel'])
    const next = (await search('exel', `&limit=1&cursor=${first.next_cursor}`)).body.data
    expect(next.corrected).toBe('excel')
    expect(next.list[0]!.title).toMatch(/^Excel /)
    expect(next.list[0]!.id).not.toBe(first.list[0]!.id)
    // A keyword that finds courses as typed is never corrected, however close another word is.
    const exact = (await search('excel')).body.data
    expect(exact).not.toHaveProperty('corrected')
    expect((await search('数据透式表')).body.data.corrected).toBe('数据透视表')
    expect((await search('shuicia')).body.data.corrected).toBe('shuicai')
  })

  it('checks the readings of a corrected word in the order given and stops at the first a course has', async () => {
    const db = t().database.db
    const first = (...words: string[]) =>
      firstWordFound(
        db,
        words.map((word) => ({ word, all: weighted(wordQuery(word)!.any, '') })),
      )
    expect(await first('数据透感表', '数据透视表')).toBe('数据透视表')
    // Both are in titles: the one given first wins, either way round.
    expect(await first('水彩风景', '水彩花卉')).toBe('水彩风景')
    expect(await first('水彩花卉', '水彩风景')).toBe('水彩花卉')
    expect(await first('数据透感表')).toBeNull()
    expect(await first()).toBeNull()
  })

  it('reads what a misspelt Latin word may mean, Latin words and pinyin runs (without their mark), in one statement', async () => {
    const db = t().database.db
    expect((await spellingCandidates(db, 'exel')).latin).toContain('excel')
    const { latin, pinyin } = await spellingCandidates(db, 'tiose')
    expect(latin).not.toContain('tiaose')
    expect(pinyin.length).toBeGreaterThan(0)
    expect(pinyin.every((run) => run.startsWith('t'))).toBe(true)
    expect(pinyin.some((run) => run.startsWith('tiaose'))).toBe(true)
  })

  it('corrects a wrong character of a word found only in a lesson title (水采画 → 水彩画)', async () => {
    const db = t().database.db
    await db.execute(sql`update videos set title = '水彩画的留白' where title = '玫瑰'`)
    await refreshSearchDocuments(db)
    try {
      const { data } = (await search('水采画')).body
      expect(data.corrected).toBe('水彩画')
      expect(data.list.map((c) => c.title)).toEqual(['水彩花卉入门'])
      expect(data.list[0]!.highlights.lesson).toEqual({ text: '水彩画的留白', ranges: [{ start: 0, end: 3 }] })
    } finally {
      await db.execute(sql`update videos set title = '玫瑰' where title = '水彩画的留白'`)
      await refreshSearchDocuments(db)
    }
  })

  it('ranks by where the word is (title, teacher or tag, category, lesson), then by learners', async () => {
    const list = (await search('调色', '&limit=50')).body.data.list
    const rank = (h: SearchHit) =>
      h.matched.includes('title') ? 3 : h.matched.includes('tag') ? 2 : h.matched.includes('category') ? 1 : 0
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [list[i - 1]!, list[i]!]
      expect(rank(a)).toBeGreaterThanOrEqual(rank(b))
      if (rank(a) === rank(b) && a.matched.join() === b.matched.join())
        expect(a.student_count).toBeGreaterThanOrEqual(b.student_count)
    }
  })

  it('marks pinyin matches and the lesson or tag a course was found by', async () => {
    const pinyinHit = (await search('shuicai')).body.data.list.find((c) => c.title === '水彩花卉入门')!
    expect(titleMarks(pinyinHit)).toEqual(['水彩'])
    const lesson = (await search('示波器')).body.data.list[0]!
    expect(lesson.matched).toEqual(['lesson'])
    expect(lesson.highlights.lesson).toEqual({ text: '读懂示波器', ranges: [{ start: 2, end: 5 }] })
    const tag = (await search('电影感')).body.data.list[0]!
    expect(tag.matched).toContain('tag')
    expect(tag.highlights.tag).toEqual({ text: '电影感', ranges: [{ start: 0, end: 3 }] })
    expect(tag.highlights.lesson).toBeNull()
  })

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
      expect(titleMarks(hit)).toEqual([hit.title.includes('PS') ? 'PS' : 'Photoshop'])
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

  // Several words: the courses with every word in the title are read first (titlePage); when they fill the page
  // nothing else is scored. The pages, their order and the cursors must be those of scoring every match.
  it.each([
    '设计 入门',
    'ps 入门',
    '入门 剪辑',
    'excel 数据',
    '数据透视表',
    '零基础 板绘',
    '水彩 入门',
    'PS快捷键 10',
    'ps photoshop',
  ])('pages %s as ranking every match does, across the title matches and past them', async (keyword) => {
    const words = keywordWords(keyword).map((w) => wordQuery(w)!)
    const all = await searchCourses(t().database.db, words, undefined, 100)
    expect(all.length).toBeGreaterThan(0)
    for (const limit of [1, 2]) {
      const seen: number[] = []
      let cursor: string | null = null
      do {
        const { body }: { body: Envelope<SearchResult> } = await search(
          keyword,
          `&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
        )
        seen.push(...body.data.list.map((c) => c.id))
        cursor = body.data.next_cursor
      } while (cursor)
      expect(seen).toEqual(all.map((r) => r.id))
    }
  })

  // The title reading on its own, for every shape of keyword: merged lists (one, two, three), a Latin word probed
  // as itself, its longer words and its aliases, a word with only such terms driving, whole phrases, and a term no
  // title has. What it gives must be exactly the top-scoring rows of scoring every match, from any cursor.
  it.each([
    '设计 入门',
    'ps 入门',
    '入门 精通 从',
    '数据透视表',
    'PS快捷键 10',
    'ps photoshop',
    'excel 数据',
    '零基础 板绘',
    '数据透式表',
  ])('reads %s from the title lists as scoring every match ranks it', async (keyword) => {
    const db = t().database.db
    const words = keywordWords(keyword).map((w) => wordQuery(w)!)
    const top = (await searchCourses(db, words, undefined, 100))
      .filter((r) => r.score === 8 * words.length)
      .map((r) => ({ ...r, lessons: null }))
    expect(await titlePage(db, words, undefined, 100)).toEqual(top)
    for (const [k, r] of top.entries())
      expect(await titlePage(db, words, { studentCount: r.studentCount, id: r.id }, 100)).toEqual(top.slice(k + 1))
  })

  it('reads the courses with every word in the title in learners order, a short page when there are fewer', async () => {
    const db = t().database.db
    const words = (keyword: string) => keywordWords(keyword).map((w) => wordQuery(w)!)
    const inTitles = (await searchCourses(db, words('设计 入门'), undefined, 100)).filter((r) => r.score === 16)
    expect(inTitles.length).toBeGreaterThanOrEqual(2)
    const page = await titlePage(db, words('设计 入门'), undefined, 10)
    expect(page.map((p) => p.id)).toEqual(inTitles.map((r) => r.id))
    // The cards are those of ranking every match, scored as every word in the title.
    expect(page).toEqual(inTitles.map((r) => ({ ...r, lessons: null })))
    const [first, second] = page
    const after = { studentCount: first!.studentCount, id: first!.id }
    expect(await titlePage(db, words('设计 入门'), after, 10)).toEqual(page.slice(1))
    expect(first!.studentCount).toBeGreaterThanOrEqual(second!.studentCount)
    // 抠图 is only in a lesson title; 数据透视表 whole in a title, 透视 数据 too (any order), 数据表 not whole.
    expect(await titlePage(db, words('ps 抠图'), undefined, 10)).toEqual([])
    expect(await titlePage(db, words('数据透视表'), undefined, 10)).toHaveLength(1)
    expect(await titlePage(db, words('透视 数据'), undefined, 10)).toHaveLength(1)
    expect(await titlePage(db, words('数据表'), undefined, 10)).toEqual([])
  })

  it('ranks a course with a word only in a tag below those with every word in the title, however many learners', async () => {
    const db = t().database.db
    const title = '平面设计师系统班'
    const [{ tags, student_count }] = (
      await db.execute<{ tags: string[]; student_count: number }>(
        sql`select tags, student_count from courses where title = ${title}`,
      )
    ).rows as [{ tags: string[]; student_count: number }]
    await db.execute(sql`update courses set tags = ${`{${[...tags, '入门'].join(',')}}`}::text[], student_count = 1000000
      where title = ${title}`)
    await refreshSearchDocuments(db)
    try {
      const first = (await search('设计 入门', '&limit=1')).body.data
      expect(first.list.map((c) => c.title)).not.toContain(title)
      const all = (await search('设计 入门', '&limit=50')).body.data.list
      const at = all.findIndex((c) => c.title === title)
      expect(all.slice(0, at).every((c) => c.title.includes('设计') && c.title.includes('入门'))).toBe(true)
      expect(at).toBeGreaterThanOrEqual(2)
    } finally {
      await db.execute(sql`update courses set tags = ${`{${tags.join(',')}}`}::text[], student_count = ${student_count}
        where title = ${title}`)
      await refreshSearchDocuments(db)
    }
  })

  it('finds a word a course was just given by its start, as written and as pinyin', async () => {
    // A prefix's terms are read from the vocabulary (search_words), which a course's new terms join.
    const db = t().database.db
    const title = '平面设计师系统班'
    await db.execute(sql`update courses set title = ${`${title} Zixueword 饕餮纹样`} where title = ${title}`)
    await refreshSearchDocuments(db)
    try {
      for (const keyword of ['zixuewo', 'ZIXUEWORD', 'taoti', 'taotie', 'taotiewen']) {
        const { body } = await search(keyword)
        expect(
          body.data.list.map((c) => c.title),
          keyword,
        ).toEqual([`${title} Zixueword 饕餮纹样`])
      }
    } finally {
      await db.execute(sql`update courses set title = ${title} where title = ${`${title} Zixueword 饕餮纹样`}`)
      await refreshSearchDocuments(db)
    }
    expect((await search('taotie')).body.data.list).toEqual([])
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
    expect(missing.json<Envelope<unknown>>().data).toEqual({ field: 'keyword' })
    const blank = await search('   ')
    expect(blank.status).toBe(400)
    expect(blank.body.data).toEqual({ field: 'keyword' })
    expect((await search('字'.repeat(51))).status).toBe(400)
    const first = await search('入门', '&limit=1')
    const other = await search('剪辑', `&cursor=${first.body.data.next_cursor}`)
    expect(other.status).toBe(400)
    expect(other.body.data).toEqual({ field: 'cursor' })
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
  // The index use at scale: server/db/seed-scale/query-plans.test.ts (EXPLAIN on 20,000 courses).
})

describe('search helpers', () => {
  it('splits a keyword into distinct words, at most five', () => {
    expect(keywordWords('PS ps Ps 调色')).toEqual(['PS', '调色'])
    expect(keywordWords('a b c d e f g')).toEqual(['a', 'b', 'c', 'd', 'e'])
  })

  it('folds full-width letters and case without moving offsets', () => {
    expect(fold('ＰＳ调色 Excel')).toBe('ps调色 excel')
    expect(fold('【Ｅｘｃｅｌ】函数（入门）')).toBe('【excel】函数(入门)')
  })

  it('folds by lower-casing only texts NFKC leaves as they are', () => {
    // Every character the fast path accepts is its own NFKC form; a few it must not accept are not.
    for (const [from, to] of [
      [0x0009, 0x000a],
      [0x000d, 0x000d],
      [0x0020, 0x007e],
      [0x3001, 0x3011],
      [0x4e00, 0x9fff],
    ] as const)
      for (let c = from; c <= to; c++) {
        const ch = String.fromCharCode(c)
        expect(NFKC_STABLE.test(ch)).toBe(true)
        if (ch.normalize('NFKC') !== ch) throw new Error(`U+${c.toString(16)} changes under NFKC`)
      }
    for (const ch of ['\u3000', '\u3036', '\uff21', '\uf900', '①']) {
      expect(ch.normalize('NFKC')).not.toBe(ch)
      expect(NFKC_STABLE.test(ch)).toBe(false)
    }
  })

  it('finds and merges ranges: as written in any case, through an alias, as pinyin full or initials', () => {
    expect(matchRanges('Photoshop 人像 photoshop', ['PHOTOSHOP'])).toEqual([
      { start: 0, end: 9 },
      { start: 13, end: 22 },
    ])
    expect(matchRanges('剪映手机剪辑', ['剪映手', '手机剪'])).toEqual([{ start: 0, end: 5 }])
    expect(matchRanges('Photoshop 零基础入门', ['ps'])).toEqual([{ start: 0, end: 9 }])
    expect(matchRanges('水彩花卉入门', ['shuicai'])).toEqual([{ start: 0, end: 2 }])
    expect(matchRanges('水彩花卉入门', ['shuic'])).toEqual([{ start: 0, end: 2 }])
    expect(matchRanges('水彩花卉入门', ['schh'])).toEqual([{ start: 0, end: 4 }])
    expect(matchRanges('Procreate 板绘', ['c'])).toEqual([])
    expect(matchRanges(null, ['x'])).toEqual([])
  })

  it('builds a document with characters, pairs, words, aliases and pinyin at the field weights', () => {
    const d = searchDocument({
      title: '水彩 Photoshop',
      teacherName: '赵木',
      tags: ['花卉'],
      categoryNames: ['水彩', '绘画插画'],
      lessons: ['控水练习'],
    })
    for (const lexeme of [`'水':1A`, `'水彩':1A,1C`, `'photoshop':1A`, `'ps':1A`, `'~shuicai':1A`, `'^sc':1A`])
      expect(d.head).toContain(lexeme)
    expect(d.head).toContain(`'赵木':1B`)
    expect(d.head).not.toContain('控水')
    expect(d.doc).toContain(`'控水':1D`)
    expect(d.doc).not.toContain('~kongshui')
  })

  it('measures edits (a swap of neighbours is one) and finds the closest start of a longer word', () => {
    expect(editDistance('premeire', 'premiere')).toBe(1)
    expect(editDistance('exel', 'excel')).toBe(1)
    expect(editDistance('procreatte', 'procreate')).toBe(1)
    expect(editDistance('fimga', 'figma')).toBe(1)
    expect(editDistance('水采画', '水彩画')).toBe(1)
    expect(editDistance('abc', 'cba')).toBe(2)
    expect(closestPrefix('shuicia', 'shuicaihuahui', 1)).toEqual({ distance: 1, prefix: 'shuicai' })
    expect(closestPrefix('photsho', 'photoshop', 1)).toEqual({ distance: 1, prefix: 'photosho' })
    expect(closestPrefix('zzz', 'photoshop', 1).distance).toBe(3)
    expect([maxEdits('exel'), maxEdits('photosop'), maxEdits('illustrater')]).toEqual([1, 2, 2])
  })

  it('turns a word into a tsquery of pairs, prefixes and pinyin (null for a word of symbols)', () => {
    expect(wordQuery('水彩画')).toMatchObject({ any: "('水彩'%W & '彩画'%W)", phrases: ['水彩画'] })
    expect(wordQuery('画')?.any).toBe("'画'%W")
    expect(wordQuery('PS')?.any).toBe("('ps':*%W | 'photoshop'%W | '~ps':*%W | '^ps':*%W)")
    expect(wordQuery('PS')?.direct).toBe("('ps':*%W | 'photoshop'%W)")
    expect(wordQuery('c')?.any).toBe("'c'%W")
    expect(wordQuery('%')).toBeNull()
  })
})
