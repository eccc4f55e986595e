import { renderToString } from 'react-dom/server'
import { MemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'
import type { CardFields } from './card-fields.ts'
import { CourseRow, CourseTile } from './course-card.tsx'

const course: CardFields = {
  id: 1004,
  type: 'single',
  title: 'Illustrator 矢量图形设计',
  cover: '/demo/courses/ai-vector.webp',
  price_fen: 14900,
  original_price_fen: 19900,
  is_free: false,
  vip_free: true,
  student_count: 31_000,
  teacher_name: '林晓',
}

/** As the server renders a page (renderToString writes React's text separators, renderToStaticMarkup does not). */
const render = (card: React.ReactNode) => renderToString(<MemoryRouter>{card}</MemoryRouter>)

describe('course cards in the server render', () => {
  // Every server render of a list writes each card: a count or a price split into two text nodes costs React a
  // separator comment (`<!-- -->`) and a second text node per card (issue 11 §3).
  it('write each count and price as one text node', () => {
    for (const html of [render(<CourseRow course={course} />), render(<CourseTile course={course} />)]) {
      expect(html).not.toContain('<!-- -->')
      expect(html).toContain('3.1万人学过')
      expect(html).toContain('原价</span>¥199</s>')
    }
  })

  it('draw the ¥ of the price with CSS, not an element of its own', () => {
    const html = render(<CourseTile course={course} />)
    expect(html).toMatch(/<span class="[^"]*">149<\/span>/)
    expect(html).not.toMatch(/>¥<\/span>/)
  })
})
