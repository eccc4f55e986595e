import { describe, expect, it } from 'vitest'
import { queueAction, type KeyPress } from './queue-keys.tsx'

/** A key press on an element that matches `inside` (the selectors it sits in), as the browser would send it. */
function press(key: string, inside: string[] = [], mods: Partial<KeyPress> = {}): KeyPress {
  const target = {
    closest: (selector: string) => (selector.split(', ').some((s) => inside.includes(s)) ? {} : null),
  }
  return { key, target: target as unknown as EventTarget, ctrlKey: false, metaKey: false, altKey: false, ...mods }
}

describe('the keyboard of a console queue (issue 13 §3)', () => {
  it('J or ↓ moves to the next row, K or ↑ to the previous one, Enter opens the row', () => {
    expect(queueAction(press('j'), ['Enter'])).toBe('next')
    expect(queueAction(press('J'), ['Enter'])).toBe('next')
    expect(queueAction(press('ArrowDown'), ['Enter'])).toBe('next')
    expect(queueAction(press('k'), ['Enter'])).toBe('previous')
    expect(queueAction(press('ArrowUp'), ['Enter'])).toBe('previous')
    expect(queueAction(press('Enter'), ['Enter'])).toBe('Enter')
    expect(queueAction(press('h'), ['a', 'h'])).toBe('h')
  })

  it('leaves typing, dialogs, drawers, buttons and modified keys alone, and ignores other keys', () => {
    for (const where of ['input', 'textarea', 'select', '[contenteditable="true"]', '.ant-modal', '.ant-drawer'])
      expect(queueAction(press('j', [where]), ['Enter'])).toBeNull()
    expect(queueAction(press('Enter', ['button']), ['Enter'])).toBeNull()
    expect(queueAction(press('Enter', ['a']), ['Enter'])).toBeNull()
    expect(queueAction(press('j', [], { ctrlKey: true }), ['Enter'])).toBeNull()
    expect(queueAction(press('k', [], { metaKey: true }), ['Enter'])).toBeNull()
    expect(queueAction(press('x'), ['Enter'])).toBeNull()
    expect(queueAction(press('Enter'), [])).toBeNull()
  })
})
