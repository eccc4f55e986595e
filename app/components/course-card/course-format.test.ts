import { describe, expect, it } from 'vitest'
import { formatCount, formatTotalDuration, previewLabel } from './course-format.ts'

describe('formatCount (the one count formatter: 1.5万人学过)', () => {
  it.each([
    [0, '0'],
    [960, '960'],
    [9999, '9999'],
    [10_000, '1万'],
    [12_860, '1.2万'],
    [15_230, '1.5万'],
    [19_999, '1.9万'],
    [123_456, '12.3万'],
  ])('%i reads %s (rounded down, never more than there is)', (n, text) => {
    expect(formatCount(n)).toBe(text)
  })
})

describe("formatTotalDuration (a course's length on its page)", () => {
  it.each([
    [6, '6 秒'],
    [29.6, '30 秒'],
    [30, '1 分钟'],
    [89, '1 分钟'],
    [600, '10 分钟'],
    [3600, '1 小时'],
    [7830, '2 小时 11 分钟'],
  ])('%d s reads %s', (seconds, text) => {
    expect(formatTotalDuration(seconds)).toBe(text)
  })
})

describe('previewLabel (what the player really plays of a preview)', () => {
  it.each([
    [10, '试看 10 秒'],
    [59, '试看 59 秒'],
    [60, '试看 1 分钟'],
    [119, '试看 1 分钟'],
    [150, '试看 2 分钟'],
    [120.9, '试看 2 分钟'],
  ])('%s s says %s, rounded down', (seconds, text) => {
    expect(previewLabel(seconds)).toBe(text)
  })
})
