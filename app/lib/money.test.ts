import { describe, expect, it } from 'vitest'
import { formatYuan } from './money.ts'

describe('formatYuan', () => {
  it.each([
    [0, '0'],
    [3900, '39'],
    [3990, '39.9'],
    [3999, '39.99'],
    [5, '0.05'],
    [29900, '299'],
    [-150, '-1.5'],
    [1.5, '0'],
  ])('%i fen → ¥%s', (fen, text) => {
    expect(formatYuan(fen)).toBe(text)
  })
})
