import { renderToStaticMarkup } from 'react-dom/server'
import { MemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'
import type { SearchHit } from '#server/modules/catalogue/search.schema.ts'
import { SearchResultRow } from './search-result-row.tsx'

const hit = (over: Partial<SearchHit>): SearchHit => ({
  id: 1001,
  type: 'series',
  title: '达芬奇调色：电影感画面',
  subtitle: '',
  cover: '/covers/a.jpg',
  price_fen: 9900,
  original_price_fen: null,
  is_free: false,
  vip_free: false,
  student_count: 4630,
  teacher_name: '周野',
  live_starts_at: null,
  matched: ['title'],
  highlights: { title: [], teacher_name: [], tag: null, lesson: null },
  ...over,
})

const render = (h: SearchHit) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <SearchResultRow hit={h} />
    </MemoryRouter>,
  )

describe('a search result row', () => {
  it('marks the matched ranges of the title as elements, the text escaped', () => {
    const html = render(
      hit({
        title: '<b>PS</b> 调色',
        highlights: { title: [{ start: 3, end: 5 }], teacher_name: [], tag: null, lesson: null },
      }),
    )
    expect(html).toContain('&lt;b&gt;</span><mark')
    expect(html).toMatch(/<mark[^>]*>PS<\/mark>/)
    expect(html).not.toContain('<b>')
  })

  it('shows the lesson a course was found by, with the words marked', () => {
    const html = render(
      hit({
        matched: ['lesson'],
        highlights: {
          title: [],
          teacher_name: [],
          tag: null,
          lesson: { text: '读懂示波器', ranges: [{ start: 2, end: 5 }] },
        },
      }),
    )
    expect(html).toMatch(/课时：<span>读懂<\/span><mark[^>]*>示波器<\/mark>/)
  })

  it('shows the tag a course was found by, and nothing more when the title matched', () => {
    const tag = { text: '电影感', ranges: [{ start: 0, end: 3 }] }
    expect(render(hit({ matched: ['tag'], highlights: { title: [], teacher_name: [], tag, lesson: null } }))).toMatch(
      /标签：<mark[^>]*>电影感<\/mark>/,
    )
    expect(
      render(
        hit({
          matched: ['title', 'tag'],
          highlights: { title: [{ start: 6, end: 9 }], teacher_name: [], tag, lesson: null },
        }),
      ),
    ).not.toContain('标签：')
  })
})
