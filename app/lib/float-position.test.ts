import { describe, expect, it } from 'vitest'
import { START_HEIGHT_RATIO, TAP_MAX_MS, boxesOverlap, clampTop, isTap, snapSide, startTop } from './float-position.ts'

describe('service button geometry (spec 2 and 9)', () => {
  it('starts at 78% of the viewport height', () => {
    expect(START_HEIGHT_RATIO).toBe(0.78)
    expect(startTop(844, 52)).toBeCloseTo(658.32)
    // A short viewport keeps the whole button visible.
    expect(startTop(100, 52)).toBe(36)
  })

  it.each([
    [-40, 12],
    [0, 12],
    [400, 400],
    [900, 780],
  ])('clamps top %i to %i on an 844 px screen', (top, clamped) => {
    expect(clampTop(top, 52, 844)).toBe(clamped)
  })

  it.each([
    // 390 px phone, column from 0
    [20, 0, 390, 'left'],
    [194, 0, 390, 'left'],
    [195, 0, 390, 'right'],
    [380, 0, 390, 'right'],
    // 500 px column centred in a 1200 px window (left edge 350)
    [400, 350, 500, 'left'],
    [700, 350, 500, 'right'],
    [100, 350, 500, 'left'],
  ])('centre x %i in a column at %i, %i wide → %s', (x, left, width, side) => {
    expect(snapSide(x, left, width)).toBe(side)
  })

  it.each([
    [0, 0, true],
    [99, 3, true],
    [100, 0, false],
    [40, 7, false],
    [350, 0, false],
  ])('a %i ms press moving %i px is a tap: %s', (ms, moved, tap) => {
    expect(isTap(ms, moved)).toBe(tap)
  })

  it('uses the spec threshold of 100 ms', () => {
    expect(TAP_MAX_MS).toBe(100)
  })
})

describe('boxesOverlap (the service button against a line of text)', () => {
  const button = { left: 326, right: 378, top: 658, bottom: 710 }
  it.each([
    ['a line under it', { left: 16, right: 374, top: 680, bottom: 700 }, true],
    ['a line ending left of it', { left: 16, right: 326, top: 680, bottom: 700 }, false],
    ['a line just above it', { left: 16, right: 374, top: 630, bottom: 658 }, false],
    ['a line inside it', { left: 330, right: 340, top: 660, bottom: 670 }, true],
  ])('%s', (_name, line, expected) => {
    expect(boxesOverlap(line, button)).toBe(expected)
  })
})
