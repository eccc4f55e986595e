import { describe, expect, it } from 'vitest'
import { cssClassNames } from './css-class-names.ts'

describe('CSS-module class names', () => {
  it('are short in production: `_` and six characters, the same for the same class in both builds', () => {
    const client = cssClassNames(true)
    const server = cssClassNames(true)
    const name = client('tileStudents', '/app/components/course-card/course-card.module.css', '.tileStudents{}')
    expect(name).toMatch(/^_[\w-]{6}$/)
    expect(server('tileStudents', '/app/components/course-card/course-card.module.css', '.tileStudents{}')).toBe(name)
  })

  it('differ by class and by file', () => {
    const scoped = cssClassNames(true)
    const names = new Set([
      scoped('title', '/a.module.css', '.title{}'),
      scoped('meta', '/a.module.css', '.title{}'),
      scoped('title', '/b.module.css', '.title{color:red}'),
    ])
    expect(names.size).toBe(3)
  })

  it('keep the readable name in development', () => {
    expect(cssClassNames(false)('title', '/a.module.css', '.title{}')).toMatch(/^title_[\w-]{5}$/)
  })
})
