import { describe, expect, it } from 'vitest'
import { fenToYuan, formatFigure, formatYuan, yuanToFen } from './money.ts'
import {
  beijingCompactDate,
  beijingDate,
  beijingDateTime,
  beijingDayFromText,
  beijingDayStart,
  beijingMinute,
  beijingYear,
  rfc3339Beijing,
} from './time.ts'

describe('money', () => {
  it.each([
    [3900, '39'],
    [3990, '39.9'],
    [3999, '39.99'],
    [5, '0.05'],
    [0, '0'],
    [-150, '-1.5'],
    [1.5, '0'],
  ])('formatYuan(%i) is %s', (fen, text) => expect(formatYuan(fen)).toBe(text))

  it.each([
    [416000, '4,160.00'],
    [22425, '224.25'],
    [9950, '99.50'],
    [0, '0.00'],
    [123456789, '1,234,567.89'],
    [-150, '-1.50'],
  ])('formatFigure(%i) is %s', (fen, text) => expect(formatFigure(fen)).toBe(text))

  it('fenToYuan always writes two decimals and refuses what is not fen', () => {
    expect(fenToYuan(3990)).toBe('39.90')
    expect(fenToYuan(1)).toBe('0.01')
    expect(() => fenToYuan(1.5)).toThrow()
    expect(() => fenToYuan(-1)).toThrow()
  })

  it.each([
    ['39', 3900],
    ['39.9', 3990],
    ['39.90', 3990],
    ['0.01', 1],
    ['39.999', null],
    ['-1', null],
    ['1e3', null],
    [undefined, null],
  ])('yuanToFen(%s) is %s', (text, fen) => expect(yuanToFen(text)).toBe(fen))
})

describe('Beijing time', () => {
  const lateUtc = new Date('2026-11-25T17:03:22.500Z') // 01:03 on the 26th in Beijing

  it('takes the calendar day from Beijing, not UTC', () => {
    expect(beijingDate(lateUtc)).toBe('2026-11-26')
    expect(beijingCompactDate(lateUtc)).toBe('20261126')
    expect(beijingDayStart(lateUtc).toISOString()).toBe('2026-11-25T16:00:00.000Z')
    expect(beijingYear(new Date('2026-12-31T16:30:00Z'))).toBe(2027)
  })

  it.each([
    ['2025-03-01T15:59:59Z', '2025-02-28T16:00:00Z'],
    ['2025-03-01T16:00:00Z', '2025-03-01T16:00:00Z'],
    ['2025-03-01T00:00:00Z', '2025-02-28T16:00:00Z'],
  ])('puts %s in the Beijing day starting %s', (at, start) =>
    expect(beijingDayStart(new Date(at)).toISOString()).toBe(new Date(start).toISOString()),
  )

  it('writes wall-clock times', () => {
    expect(beijingDateTime(lateUtc)).toBe('2026-11-26 01:03:22')
    expect(beijingMinute(lateUtc)).toBe('2026-11-26 01:03')
    expect(rfc3339Beijing(lateUtc)).toBe('2026-11-26T01:03:22+08:00')
  })

  it('reads a calendar day as its Beijing midnight', () => {
    expect(beijingDayFromText('2026-11-26').toISOString()).toBe('2026-11-25T16:00:00.000Z')
    expect(beijingDayFromText('2026-11-26', 1).toISOString()).toBe('2026-11-26T16:00:00.000Z')
  })
})
