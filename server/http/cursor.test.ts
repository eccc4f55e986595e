import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AppError } from './app-error.ts'
import { cursorId, decodeCursor, encodeCursor } from './cursor.ts'

describe('cursor codec', () => {
  const shape = z.tuple([z.literal('new'), z.string(), cursorId])

  it('round-trips the sort key of the last row', () => {
    expect(decodeCursor(encodeCursor(['new', '2026-11-25T00:00:00.000Z', 42]), shape)).toEqual([
      'new',
      '2026-11-25T00:00:00.000Z',
      42,
    ])
  })

  it.each([
    ['not base64 json', 'a%%%'],
    ['another list', encodeCursor(['hot', 'x', 1])],
    ['a bad id', encodeCursor(['new', 'x', 0])],
    ['the wrong length', encodeCursor(['new', 'x'])],
  ])('answers 400 for %s', (_what, text) => {
    expect(() => decodeCursor(text, shape)).toThrow(AppError)
    expect(() => decodeCursor(text, shape)).toThrow('翻页位置无效，请刷新后重试')
  })
})
