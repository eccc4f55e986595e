import { describe, expect, it } from 'vitest'
import { CODE_COUNTDOWN_SECONDS, canRequestCode, countdownLabel, secondsLeft } from './countdown.ts'

describe('get-code countdown (spec 4: idle → 60 s labelled with the seconds left → idle)', () => {
  const t0 = 1_700_000_000_000

  it.each([
    [null, t0, 0],
    [t0, t0, 60],
    [t0, t0 + 999, 60],
    [t0, t0 + 1000, 59],
    [t0, t0 + 30_500, 30],
    [t0, t0 + 59_000, 1],
    [t0, t0 + 59_999, 1],
    [t0, t0 + 60_000, 0],
    [t0, t0 + 3_600_000, 0],
    [t0, t0 - 5_000, 60],
  ])('started %s, now %s → %i s left', (startedAt, now, left) => {
    expect(secondsLeft(startedAt, now)).toBe(left)
  })

  it('lasts 60 seconds', () => {
    expect(CODE_COUNTDOWN_SECONDS).toBe(60)
  })

  it.each([
    [null, t0, true],
    [t0, t0, false],
    [t0, t0 + 59_999, false],
    [t0, t0 + 60_000, true],
  ])('may request a code (started %s, now %s) → %s', (startedAt, now, may) => {
    expect(canRequestCode(startedAt, now)).toBe(may)
  })

  it.each([
    [0, '获取验证码'],
    [60, '60s'],
    [59, '59s'],
    [1, '1s'],
  ])('label with %i s left → %s', (left, label) => {
    expect(countdownLabel(left)).toBe(label)
  })
})
